import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Switch,
  tokens,
} from '@fluentui/react-components';
import {
  AddRegular,
  ArrowDownloadRegular,
  ArrowSyncRegular,
  DeleteRegular,
  MailRegular,
  PhoneRegular,
  ShieldCheckmarkRegular,
  ShieldErrorRegular,
} from '@fluentui/react-icons';
import { LOW_BACKUP_CODES, type MfaMethodView } from '@contracts/identity/mfa/mfa.schema';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { renewAccess } from '../../../lib/access';
import { useSignedIn } from '../../../lib/auth-store';
import { downloadText } from '../../../lib/download';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useBackupStatus, useMfaActions, useMfaMethods, useMfaStatus } from '../api/security';
import { backupCodesFile } from './backup-codes-file';
import { MfaSetupDialog } from './MfaSetupDialog';
import { agree, countOf } from '../../../lib/plural';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(340px, 1fr))',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
    '@media (max-width: 640px)': { gridTemplateColumns: '1fr' },
  },
  card: {
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  status: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM },
  statusIcon: { fontSize: '40px' },
  on: { color: tokens.colorPaletteGreenForeground1 },
  off: { color: tokens.colorPaletteMarigoldForeground1 },
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  method: {
    display: 'grid',
    gridTemplateColumns: 'auto 1fr auto auto',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    '@media (max-width: 480px)': {
      gridTemplateColumns: 'auto 1fr',
      rowGap: tokens.spacingVerticalS,
    },
  },
  methodText: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  reasons: { margin: 0, paddingLeft: tokens.spacingHorizontalXL },
  codes: {
    display: 'flex',
    alignItems: 'baseline',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  big: { fontSize: tokens.fontSizeHero700, fontWeight: tokens.fontWeightSemibold, lineHeight: 1 },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  codesList: {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, 1fr)',
    gap: tokens.spacingVerticalXS,
    margin: 0,
    padding: tokens.spacingHorizontalM,
    listStyleType: 'none',
    fontFamily: tokens.fontFamilyMonospace,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
  },
});

const methodIcon = (method: MfaMethodView) =>
  method.type === 'sms' ? (
    <PhoneRegular aria-hidden />
  ) : method.type === 'email' ? (
    <MailRegular aria-hidden />
  ) : (
    <ShieldCheckmarkRegular aria-hidden />
  );

const methodDetail = (method: MfaMethodView) =>
  method.type === 'authenticator'
    ? 'Authenticator app'
    : method.type === 'sms'
      ? `Text message · ${method.details.phoneNumber ?? ''}`
      : `Email · ${method.details.email ?? ''}`;

/** My Security: MFA status, methods, backup codes and good habits. */
export function MySecurityTab() {
  const styles = useStyles();
  const notify = useNotify();
  const { user, mfaSetupRequired } = useSignedIn();
  const status = useMfaStatus();
  const methods = useMfaMethods();
  const backup = useBackupStatus();
  const actions = useMfaActions();
  const [setupOpen, setSetupOpen] = useState(false);
  const [removing, setRemoving] = useState<MfaMethodView | null>(null);
  const [regenerateOpen, setRegenerateOpen] = useState(false);
  const [freshCodes, setFreshCodes] = useState<string[] | null>(null);
  const enabled = methods.data?.methods.filter((method) => method.enabled) ?? [];
  const remaining = backup.data?.remaining ?? 0;

  const toggle = useAction(
    (method: MfaMethodView, enabled: boolean) => actions.update(method, { enabled }),
    { onError: (message) => notify.error('Could not change the method', message) },
  );

  const closeSetup = () => {
    setSetupOpen(false);
    // A person enrolling because the policy required it gets a token without the restriction.
    if (mfaSetupRequired) void renewAccess().catch(() => undefined);
  };

  return (
    <div className={styles.grid}>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2 as="h2">Two-factor authentication</Subtitle2>} />
        {status.data ? (
          <div className={styles.status}>
            {status.data.enabled ? (
              <ShieldCheckmarkRegular
                className={mergeClasses(styles.statusIcon, styles.on)}
                aria-hidden
              />
            ) : (
              <ShieldErrorRegular
                className={mergeClasses(styles.statusIcon, styles.off)}
                aria-hidden
              />
            )}
            <div>
              <Badge appearance="filled" color={status.data.enabled ? 'success' : 'warning'}>
                {status.data.enabled ? 'Enabled' : 'Recommended'}
              </Badge>
              <Body1 as="p">
                {status.data.enabled
                  ? `${countOf(status.data.methods, 'method')} ${agree(status.data.methods, 'protects', 'protect')} your sign-in.`
                  : 'Your sign-in is protected by your password alone.'}
              </Body1>
            </div>
          </div>
        ) : (
          <Skeleton aria-label="Loading status">
            <SkeletonItem size={48} />
          </Skeleton>
        )}
        {status.data && !status.data.enabled ? (
          <>
            <ul className={styles.reasons}>
              <li>
                <Body1>A stolen or guessed password alone no longer opens your account.</Body1>
              </li>
              <li>
                <Body1>You handle bidder data and payments that others trust you with.</Body1>
              </li>
              <li>
                <Body1>It takes a minute with an authenticator app on your phone.</Body1>
              </li>
            </ul>
            {status.data.requiredByPolicy ? (
              <MessageBar intent="warning">
                <MessageBarBody>
                  Your account requires it
                  {status.data.setupDueBy
                    ? ` by ${new Date(status.data.setupDueBy).toLocaleDateString()}`
                    : ''}
                  .
                </MessageBarBody>
              </MessageBar>
            ) : null}
            <Button appearance="primary" icon={<AddRegular />} onClick={() => setSetupOpen(true)}>
              Set up two-factor authentication
            </Button>
          </>
        ) : null}
      </Card>

      {status.data?.enabled ? (
        <Card className={styles.card}>
          <CardHeader
            header={<Subtitle2 as="h2">Authentication methods</Subtitle2>}
            action={
              <Button icon={<AddRegular />} onClick={() => setSetupOpen(true)}>
                Add Method
              </Button>
            }
          />
          <ul className={styles.list} aria-label="Authentication methods">
            {methods.data?.methods.map((method) => (
              <li key={method.id} className={styles.method}>
                {methodIcon(method)}
                <div className={styles.methodText}>
                  <Body1>
                    {method.name}{' '}
                    {method.primary ? (
                      <Badge size="small" appearance="tint">
                        Primary
                      </Badge>
                    ) : null}
                  </Body1>
                  <Caption1>{methodDetail(method)}</Caption1>
                  <Caption1>
                    {method.lastUsedAt
                      ? `Last used ${new Date(method.lastUsedAt).toLocaleDateString()}`
                      : 'Not used yet'}
                  </Caption1>
                </div>
                <Switch
                  checked={method.enabled}
                  label={method.enabled ? 'On' : 'Off'}
                  aria-label={`${method.name} enabled`}
                  onChange={(_, data) => void toggle.run(method, data.checked)}
                />
                <Button
                  appearance="subtle"
                  icon={<DeleteRegular />}
                  aria-label={`Remove ${method.name}`}
                  onClick={() => setRemoving(method)}
                />
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      <Card className={styles.card}>
        <CardHeader
          header={<Subtitle2 as="h2">Backup codes</Subtitle2>}
          description={<Caption1>Each code signs you in once if you lose your device.</Caption1>}
        />
        {backup.data ? (
          backup.data.generated ? (
            <>
              <div className={styles.codes}>
                <span className={styles.big}>{remaining}</span>
                <Body1>of 10 codes left</Body1>
                {remaining === 0 ? (
                  <Badge color="danger">No codes left</Badge>
                ) : remaining <= LOW_BACKUP_CODES ? (
                  <Badge color="warning">Low</Badge>
                ) : null}
              </div>
              <Caption1>
                Generated{' '}
                {backup.data.generatedAt
                  ? new Date(backup.data.generatedAt).toLocaleDateString()
                  : ''}
              </Caption1>
            </>
          ) : (
            <Body1>No backup codes yet. They are created with your first method.</Body1>
          )
        ) : (
          <Skeleton aria-label="Loading backup codes">
            <SkeletonItem />
          </Skeleton>
        )}
        {freshCodes ? (
          <>
            <MessageBar intent="success">
              <MessageBarBody>
                New codes below. They are shown only now; your old codes no longer work.
              </MessageBarBody>
            </MessageBar>
            <ul className={styles.codesList} aria-label="New backup codes">
              {freshCodes.map((code) => (
                <li key={code}>{code}</li>
              ))}
            </ul>
            <Button
              icon={<ArrowDownloadRegular />}
              onClick={() =>
                downloadText('lotwise-backup-codes.txt', backupCodesFile(user.email, freshCodes))
              }
            >
              Download as text file
            </Button>
          </>
        ) : null}
        {status.data?.enabled ? (
          <div className={styles.row}>
            <Button icon={<ArrowSyncRegular />} onClick={() => setRegenerateOpen(true)}>
              Generate new codes
            </Button>
          </div>
        ) : null}
      </Card>

      <Card className={styles.card}>
        <CardHeader header={<Subtitle2 as="h2">Good habits</Subtitle2>} />
        <ul className={styles.reasons}>
          <li>
            <Body1>Use a password you use nowhere else; a password manager makes that easy.</Body1>
          </li>
          <li>
            <Body1>Prefer an authenticator app to text messages: it cannot be redirected.</Body1>
          </li>
          <li>
            <Body1>Keep your backup codes away from your phone.</Body1>
          </li>
          <li>
            <Body1>
              Sign out of sessions you do not recognise under your profile’s active sessions.
            </Body1>
          </li>
        </ul>
      </Card>

      {setupOpen ? <MfaSetupDialog open email={user.email} onClose={closeSetup} /> : null}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? 'method'}?`}
        confirmLabel="Remove method"
        busyLabel="Removing..."
        danger
        onClose={() => setRemoving(null)}
        failureTitle="Could not remove the method"
        onConfirm={async () => {
          if (removing) await actions.remove(removing.id);
          notify.success('Method removed');
        }}
      >
        {removing && removing.enabled && enabled.length === 1
          ? 'This is your only enabled method. Removing it turns two-factor authentication off: your password alone will protect your sign-in, and your backup codes will stop working.'
          : 'You will no longer be able to sign in with codes from this method.'}
      </ConfirmDialog>
      <ConfirmDialog
        open={regenerateOpen}
        title="Generate new backup codes?"
        confirmLabel="Generate new codes"
        busyLabel="Generating..."
        onClose={() => setRegenerateOpen(false)}
        failureTitle="Could not generate backup codes"
        onConfirm={async () => {
          const result = await actions.regenerateBackupCodes();
          setFreshCodes(result.codes);
        }}
      >
        Your current backup codes will stop working at once, including any you have saved.
      </ConfirmDialog>
    </div>
  );
}
