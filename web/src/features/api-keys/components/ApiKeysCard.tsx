import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, KeyRegular } from '@fluentui/react-icons';
import {
  apiKeyPermissions,
  type ApiKey,
  type ApiKeyPermission,
  type ApiKeyCreated,
} from '@contracts/api-keys/api-keys.schema';
import { permissionCatalogue, type Permission } from '@contracts/identity/permissions';
import { useState } from 'react';
import { useCardGridStyles } from '../../../components/card-grid';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { SecretReveal } from '../../../components/SecretReveal';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useApiKeyActions, useApiKeys } from '../api/api-keys';

const useStyles = makeStyles({
  header: { display: 'flex', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  key: { fontFamily: tokens.fontFamilyMonospace, whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  tableWrap: { overflowX: 'auto' },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  areas: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    maxHeight: '320px',
    overflowY: 'auto',
    paddingRight: tokens.spacingHorizontalS,
  },
  area: { border: 'none', margin: 0, padding: 0 },
  areaTitle: { fontWeight: tokens.fontWeightSemibold, paddingBottom: tokens.spacingVerticalXS },
  checks: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' },
  presets: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const moment = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The grantable permissions, grouped by their area (`bidders:view` -> Bidders). */
const areas = [...new Set(apiKeyPermissions.map((key) => key.split(':')[0] as string))].map(
  (area) => ({
    area,
    label: area.charAt(0).toUpperCase() + area.slice(1),
    permissions: apiKeyPermissions.filter((key) => key.startsWith(`${area}:`)),
  }),
);
const readOnly = apiKeyPermissions.filter((key) => /:(view|reports|analytics)$/.test(key));

const label = (key: string) => permissionCatalogue[key as Permission] ?? key;

function CreateKeyDialog({ onClose }: { onClose(): void }) {
  const styles = useStyles();
  const notify = useNotify();
  const { create } = useApiKeyActions();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Set<ApiKeyPermission>>(new Set(['bidders:view']));
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const save = useAction(
    async () => {
      const key = await create({ name: name.trim(), permissions: [...chosen] });
      setCreated(key);
      notify.success('API key created', `${key.name} is ready to use.`);
    },
    { fallback: 'The key was not created' },
  );
  const toggle = (key: ApiKeyPermission, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(key);
    else next.delete(key);
    setChosen(next);
  };
  const permissionsError = Object.entries(save.fieldErrors).find(([field]) =>
    field.startsWith('permissions'),
  )?.[1];
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && !save.busy && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{created ? 'Your new API key' : 'Create API key'}</DialogTitle>
          <DialogContent>
            {created ? (
              <SecretReveal label="API key" value={created.key} />
            ) : (
              <form
                id="create-api-key"
                className={styles.form}
                onSubmit={(event) => {
                  event.preventDefault();
                  void save.run();
                }}
              >
                {save.error ? (
                  <MessageBar intent="error">
                    <MessageBarBody>{save.error}</MessageBarBody>
                  </MessageBar>
                ) : null}
                <Field
                  label="Name"
                  required
                  hint="What uses it, e.g. ERP sync"
                  validationMessage={save.fieldErrors.name}
                >
                  <Input value={name} maxLength={80} onChange={(_, data) => setName(data.value)} />
                </Field>
                <Field
                  label="Permissions"
                  hint="The key can do only this, in this account; choose the least it needs."
                  validationMessage={permissionsError}
                >
                  <div className={styles.presets}>
                    <Button size="small" onClick={() => setChosen(new Set(readOnly))}>
                      Read only
                    </Button>
                    <Button size="small" onClick={() => setChosen(new Set())}>
                      Clear
                    </Button>
                    <Caption1 className={styles.muted}>
                      {countOf(chosen.size, 'permission')} chosen
                    </Caption1>
                  </div>
                </Field>
                <div className={styles.areas}>
                  {areas.map((group) => (
                    <fieldset key={group.area} className={styles.area}>
                      <legend className={styles.areaTitle}>{group.label}</legend>
                      <div className={styles.checks}>
                        {group.permissions.map((key) => (
                          <Checkbox
                            key={key}
                            label={label(key)}
                            checked={chosen.has(key)}
                            onChange={(_, data) => toggle(key, data.checked === true)}
                          />
                        ))}
                      </div>
                    </fieldset>
                  ))}
                </div>
              </form>
            )}
          </DialogContent>
          <DialogActions>
            {created ? (
              <Button appearance="primary" onClick={onClose}>
                Done
              </Button>
            ) : (
              <>
                <Button onClick={onClose} disabled={save.busy}>
                  Cancel
                </Button>
                <Button
                  appearance="primary"
                  type="submit"
                  form="create-api-key"
                  disabled={save.busy || !name.trim() || chosen.size === 0}
                >
                  {save.busy ? 'Creating...' : 'Create key'}
                </Button>
              </>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke(key: ApiKey): void }) {
  const styles = useStyles();
  return (
    <TableRow>
      <TableCell>{apiKey.name}</TableCell>
      <TableCell>
        <span className={styles.key} aria-label={`Key ending ${apiKey.lastFour}`}>
          {apiKey.prefix}…{apiKey.lastFour}
        </span>
      </TableCell>
      <TableCell>
        <Tooltip
          relationship="description"
          content={apiKey.permissions.map(label).join(', ')}
          withArrow
        >
          <Badge appearance="tint" tabIndex={0}>
            {countOf(apiKey.permissions.length, 'permission')}
          </Badge>
        </Tooltip>
      </TableCell>
      <TableCell>
        {apiKey.createdBy.name}
        <Caption1 block className={styles.muted}>
          {day.format(new Date(apiKey.createdAt))}
        </Caption1>
      </TableCell>
      <TableCell>
        {apiKey.lastUsedAt ? moment.format(new Date(apiKey.lastUsedAt)) : 'Never'}
      </TableCell>
      <TableCell>
        {apiKey.revokedAt ? (
          <Badge appearance="tint" color="danger">
            Revoked
          </Badge>
        ) : (
          <Badge appearance="tint" color="success">
            Active
          </Badge>
        )}
      </TableCell>
      <TableCell>
        {apiKey.revokedAt ? null : (
          <Button size="small" onClick={() => onRevoke(apiKey)}>
            Revoke
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}

/**
 * Settings › APIs: the account's API keys, for the house's own systems to call Lotwise. A new
 * key is shown once; revoking one stops it at once.
 */
export function ApiKeysCard() {
  const styles = useStyles();
  const grid = useCardGridStyles();
  const can = useCan();
  const notify = useNotify();
  const { data, error, isLoading } = useApiKeys();
  const { revoke } = useApiKeyActions();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  if (!can('system:api_keys')) return null;
  return (
    <Card className={grid.card}>
      <CardHeader
        image={<KeyRegular fontSize={24} />}
        header={<Subtitle2 as="h2">API keys</Subtitle2>}
        description={
          <Caption1>
            Your own systems call the Lotwise API with a key, as{' '}
            <code>Authorization: Bearer &lt;key&gt;</code>, limited to the permissions it was given.
          </Caption1>
        }
        action={
          <Button appearance="primary" icon={<AddRegular />} onClick={() => setCreating(true)}>
            Create API key
          </Button>
        }
      />
      {error ? (
        <MessageBar intent="error">
          <MessageBarBody>{messageOf(error, 'The API keys could not be loaded')}</MessageBarBody>
        </MessageBar>
      ) : isLoading || !data ? (
        <Skeleton aria-label="Loading API keys">
          <SkeletonItem />
          <SkeletonItem />
        </Skeleton>
      ) : data.keys.length === 0 ? (
        <Body1 className={styles.muted}>No API keys yet.</Body1>
      ) : (
        <div className={styles.tableWrap}>
          <Table aria-label="API keys" size="small">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>Name</TableHeaderCell>
                <TableHeaderCell>Key</TableHeaderCell>
                <TableHeaderCell>Permissions</TableHeaderCell>
                <TableHeaderCell>Created</TableHeaderCell>
                <TableHeaderCell>Last used</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>
                  <span className="visually-hidden">Actions</span>
                </TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.keys.map((apiKey) => (
                <KeyRow key={apiKey.id} apiKey={apiKey} onRevoke={setRevoking} />
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {creating ? <CreateKeyDialog onClose={() => setCreating(false)} /> : null}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? 'this key'}?`}
        confirmLabel="Revoke key"
        busyLabel="Revoking..."
        danger
        failureTitle="The key was not revoked"
        onConfirm={async () => {
          if (!revoking) return;
          await revoke(revoking.id);
          notify.success('API key revoked', `${revoking.name} no longer works.`);
        }}
        onClose={() => setRevoking(null)}
      >
        Anything still using this key is refused from now on. This cannot be undone.
      </ConfirmDialog>
    </Card>
  );
}
