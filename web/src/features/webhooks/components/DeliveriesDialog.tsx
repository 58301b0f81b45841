import {
  Badge,
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import type { Delivery, Webhook } from '@contracts/webhooks/webhooks.schema';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useDeliveries, useWebhookActions } from '../api/webhooks';

const useStyles = makeStyles({
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  delivery: {
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  head: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  grow: { flexGrow: 1 },
  attempts: { margin: 0, paddingLeft: tokens.spacingHorizontalXL },
  muted: { color: tokens.colorNeutralForeground3 },
  code: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere' },
});

const moment = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

const statusColor = {
  delivered: 'success',
  failed: 'danger',
  retrying: 'warning',
  pending: 'informative',
  sending: 'informative',
} as const;

function DeliveryItem({ webhookId, delivery }: { webhookId: string; delivery: Delivery }) {
  const styles = useStyles();
  const notify = useNotify();
  const { resend } = useWebhookActions();
  const again = useAction(
    async () => {
      await resend(webhookId, delivery.id);
      notify.success('Sent again', `${delivery.event.type} is on its way.`);
    },
    { onError: (message) => notify.error('Not sent again', message) },
  );
  return (
    <li className={styles.delivery}>
      <div className={styles.head}>
        <Badge appearance="tint" color={statusColor[delivery.status]}>
          {delivery.status}
        </Badge>
        <Body1 className={styles.code}>{delivery.event.type}</Body1>
        <Caption1 className={`${styles.muted} ${styles.grow}`}>
          {moment.format(new Date(delivery.createdAt))}
          {delivery.resendOf ? ' · sent again' : ''}
        </Caption1>
        {delivery.event.type === 'ping' ? null : (
          <Button size="small" disabled={again.busy} onClick={() => void again.run()}>
            {again.busy ? 'Sending...' : 'Resend'}
          </Button>
        )}
      </div>
      {delivery.attempts.length ? (
        <ol className={styles.attempts} aria-label="Attempts">
          {delivery.attempts.map((attempt) => (
            <li key={attempt.at}>
              <Caption1>
                {moment.format(new Date(attempt.at))}:{' '}
                {attempt.statusCode === null ? 'no answer' : `HTTP ${attempt.statusCode}`} in{' '}
                {attempt.durationMs} ms
                {attempt.error ? ` · ${attempt.error}` : ''}
                {attempt.responseSnippet ? ` · “${attempt.responseSnippet.slice(0, 120)}”` : ''}
              </Caption1>
            </li>
          ))}
        </ol>
      ) : (
        <Caption1 className={styles.muted}>{delivery.lastError ?? 'Not attempted yet'}</Caption1>
      )}
      {delivery.nextAttemptAt && delivery.status === 'retrying' ? (
        <Caption1 block className={styles.muted}>
          Next attempt {moment.format(new Date(delivery.nextAttemptAt))}
        </Caption1>
      ) : null}
    </li>
  );
}

/** An endpoint's recent deliveries, each with its attempts, and resend. */
export function DeliveriesDialog({ webhook, onClose }: { webhook: Webhook; onClose(): void }) {
  const styles = useStyles();
  const { data, error, isLoading } = useDeliveries(webhook.id);
  return (
    <Dialog open onOpenChange={(_, state) => !state.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Deliveries</DialogTitle>
          <DialogContent>
            <Caption1 block className={`${styles.muted} ${styles.code}`}>
              {webhook.url}
            </Caption1>
            {error ? (
              <MessageBar intent="error">
                <MessageBarBody>
                  {messageOf(error, 'The deliveries could not be loaded')}
                </MessageBarBody>
              </MessageBar>
            ) : isLoading || !data ? (
              <Spinner size="small" label="Loading deliveries..." />
            ) : data.deliveries.length === 0 ? (
              <Body1>Nothing has been sent to this endpoint yet.</Body1>
            ) : (
              <>
                <Caption1 block>
                  {countOf(data.deliveries.length, 'delivery', 'deliveries')}, newest first
                </Caption1>
                <ul className={styles.list} aria-label="Deliveries">
                  {data.deliveries.map((delivery) => (
                    <DeliveryItem key={delivery.id} webhookId={webhook.id} delivery={delivery} />
                  ))}
                </ul>
              </>
            )}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
