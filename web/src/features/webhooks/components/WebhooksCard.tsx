import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, MoreHorizontalRegular, PlugConnectedRegular } from '@fluentui/react-icons';
import type { Webhook, WebhookWithSecret } from '@contracts/webhooks/webhooks.schema';
import { useState } from 'react';
import { useCardGridStyles } from '../../../components/card-grid';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { SecretReveal } from '../../../components/SecretReveal';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { useNotify } from '../../../lib/toast';
import { useWebhookActions, useWebhooks } from '../api/webhooks';
import { DeliveriesDialog } from './DeliveriesDialog';
import { WebhookDialog } from './WebhookDialog';

const useStyles = makeStyles({
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  endpoint: {
    display: 'grid',
    gridTemplateColumns: '1fr auto',
    alignItems: 'start',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  details: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0 },
  url: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere' },
  badges: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
});

type Open =
  | { kind: 'edit'; webhook: Webhook | null }
  | { kind: 'deliveries'; webhook: Webhook }
  | { kind: 'rotate'; webhook: Webhook }
  | { kind: 'delete'; webhook: Webhook };

function EndpointItem({ webhook, onOpen }: { webhook: Webhook; onOpen(open: Open): void }) {
  const styles = useStyles();
  const notify = useNotify();
  const { test } = useWebhookActions();
  const [testing, setTesting] = useState(false);
  const sendTest = async () => {
    setTesting(true);
    try {
      const delivery = await test(webhook.id);
      const attempt = delivery.attempts[0];
      if (delivery.status === 'delivered') {
        notify.success('Test delivered', `The endpoint answered HTTP ${attempt?.statusCode}.`);
      } else {
        notify.error(
          'Test not delivered',
          attempt?.error ?? `The endpoint answered HTTP ${attempt?.statusCode ?? '—'}.`,
        );
      }
    } catch (error) {
      notify.error('Test not sent', messageOf(error));
    } finally {
      setTesting(false);
    }
  };
  return (
    <li className={styles.endpoint}>
      <div className={styles.details}>
        <Body1 className={styles.url}>{webhook.url}</Body1>
        {webhook.description ? (
          <Caption1 className={styles.muted}>{webhook.description}</Caption1>
        ) : null}
        <div className={styles.badges}>
          <Badge appearance="tint" color={webhook.enabled ? 'success' : 'subtle'}>
            {webhook.enabled ? 'On' : 'Off'}
          </Badge>
          {webhook.events.map((event) => (
            <Badge key={event} appearance="outline">
              {event}
            </Badge>
          ))}
        </div>
        <Caption1 className={styles.muted}>Secret {webhook.secretHint}</Caption1>
      </div>
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Button
            icon={<MoreHorizontalRegular />}
            aria-label={`Actions for ${webhook.url}`}
            disabled={testing}
          />
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <MenuItem onClick={() => void sendTest()}>Send test</MenuItem>
            <MenuItem onClick={() => onOpen({ kind: 'deliveries', webhook })}>Deliveries</MenuItem>
            <MenuItem onClick={() => onOpen({ kind: 'edit', webhook })}>Edit</MenuItem>
            <MenuItem onClick={() => onOpen({ kind: 'rotate', webhook })}>Rotate secret</MenuItem>
            <MenuItem onClick={() => onOpen({ kind: 'delete', webhook })}>Delete</MenuItem>
          </MenuList>
        </MenuPopover>
      </Menu>
    </li>
  );
}

/**
 * Settings › APIs: where Lotwise tells the house's own systems what happened. Each endpoint gets
 * the events it asked for, signed with its secret (shown once), with every attempt logged.
 */
export function WebhooksCard() {
  const styles = useStyles();
  const grid = useCardGridStyles();
  const can = useCan();
  const notify = useNotify();
  const { data, error, isLoading } = useWebhooks();
  const actions = useWebhookActions();
  const [open, setOpen] = useState<Open | null>(null);
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  if (!can('system:webhooks')) return null;
  const close = () => setOpen(null);
  return (
    <Card className={grid.card}>
      <CardHeader
        image={<PlugConnectedRegular fontSize={24} />}
        header={<Subtitle2 as="h2">Webhooks</Subtitle2>}
        description={
          <Caption1>
            Lotwise POSTs each event to your endpoints, signed in the Lotwise-Signature header, and
            retries for up to about nine hours.
          </Caption1>
        }
        action={
          <Button
            appearance="primary"
            icon={<AddRegular />}
            onClick={() => setOpen({ kind: 'edit', webhook: null })}
          >
            Add webhook
          </Button>
        }
      />
      {error ? (
        <MessageBar intent="error">
          <MessageBarBody>{messageOf(error, 'The webhooks could not be loaded')}</MessageBarBody>
        </MessageBar>
      ) : isLoading || !data ? (
        <Skeleton aria-label="Loading webhooks">
          <SkeletonItem />
          <SkeletonItem />
        </Skeleton>
      ) : data.webhooks.length === 0 ? (
        <Body1 className={styles.muted}>No webhooks yet.</Body1>
      ) : (
        <ul className={styles.list} aria-label="Webhooks">
          {data.webhooks.map((webhook) => (
            <EndpointItem key={webhook.id} webhook={webhook} onOpen={setOpen} />
          ))}
        </ul>
      )}
      {open?.kind === 'edit' ? <WebhookDialog webhook={open.webhook} onClose={close} /> : null}
      {open?.kind === 'deliveries' ? (
        <DeliveriesDialog webhook={open.webhook} onClose={close} />
      ) : null}
      <ConfirmDialog
        open={open?.kind === 'rotate'}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        busyLabel="Rotating..."
        failureTitle="The secret was not rotated"
        onConfirm={async () => {
          if (open?.kind !== 'rotate') return;
          setSecret(await actions.rotateSecret(open.webhook.id));
        }}
        onClose={close}
      >
        A new secret signs every delivery from now on. The current one also signs them for 24 hours,
        so your endpoint can switch over without missing any.
      </ConfirmDialog>
      <ConfirmDialog
        open={open?.kind === 'delete'}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        busyLabel="Deleting..."
        danger
        failureTitle="The webhook was not deleted"
        onConfirm={async () => {
          if (open?.kind !== 'delete') return;
          await actions.remove(open.webhook.id);
          notify.success('Webhook deleted');
        }}
        onClose={close}
      >
        Nothing more is sent to this endpoint, and its delivery log goes with it.
      </ConfirmDialog>
      {secret ? (
        <Dialog open onOpenChange={(_, state) => !state.open && setSecret(null)}>
          <DialogSurface>
            <DialogBody>
              <DialogTitle>New signing secret</DialogTitle>
              <DialogContent>
                <SecretReveal label="Signing secret" value={secret.secret} />
              </DialogContent>
              <DialogActions>
                <Button appearance="primary" onClick={() => setSecret(null)}>
                  Done
                </Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      ) : null}
    </Card>
  );
}
