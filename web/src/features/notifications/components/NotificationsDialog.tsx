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
  DialogTrigger,
  Field,
  Input,
  makeStyles,
  mergeClasses,
  Spinner,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkRegular, DismissRegular, MailReadRegular } from '@fluentui/react-icons';
import type { NotificationView } from '@contracts/notifications/notifications.schema';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { messageOf } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useNotificationActions, useNotifications } from '../api/notifications';
import { countOf } from '../../../lib/plural';

const useStyles = makeStyles({
  surface: { maxWidth: '560px', width: '100%' },
  title: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  item: {
    display: 'grid',
    gridTemplateColumns: '1fr auto',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  unread: {
    backgroundColor: tokens.colorBrandBackground2,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorBrandStroke2}`,
  },
  text: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, minWidth: 0 },
  link: {
    backgroundColor: 'transparent',
    border: 'none',
    padding: 0,
    fontFamily: 'inherit',
    fontSize: 'inherit',
    color: 'inherit',
    textAlign: 'left',
    cursor: 'pointer',
    ':hover': { textDecorationLine: 'underline' },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalXS, alignItems: 'flex-start' },
  empty: {
    textAlign: 'center',
    padding: tokens.spacingVerticalXXL,
    color: tokens.colorNeutralForeground3,
  },
  decision: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-end',
    gap: tokens.spacingHorizontalS,
    marginTop: tokens.spacingVerticalXS,
  },
  reason: { flexGrow: 1, minWidth: '180px' },
  footer: { flexGrow: 1, alignSelf: 'center', whiteSpace: 'nowrap' },
  actions: { whiteSpace: 'nowrap', flexShrink: 0 },
});

type Decision = 'approve' | 'reject';

/**
 * Approve and Reject on a settlement waiting for approval: each asks its reason, as the case's
 * own Workflow tab does, and acts on the case from here.
 */
function SettlementDecision({ item }: { item: NotificationView }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useNotificationActions();
  const [choice, setChoice] = useState<Decision | null>(null);
  const [reason, setReason] = useState('');
  const [blank, setBlank] = useState(false);
  const decide = useAction(
    async (decision: Decision) => {
      await actions.decideSettlement(item.id, item.subject?.id ?? '', { decision, reason });
      notify.success(decision === 'approve' ? 'Settlement approved' : 'Settlement rejected');
    },
    { onError: (message) => notify.error('Could not decide the settlement', message) },
  );
  if (!choice) {
    return (
      <div className={styles.decision}>
        <Button size="small" appearance="primary" onClick={() => setChoice('approve')}>
          Approve
        </Button>
        <Button size="small" onClick={() => setChoice('reject')}>
          Reject
        </Button>
      </div>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setBlank(true);
      return;
    }
    void decide.run(choice);
  };
  return (
    <form className={styles.decision} onSubmit={submit}>
      <Field
        className={styles.reason}
        label={choice === 'approve' ? 'Reason for approving' : 'Reason for rejecting'}
        required
        size="small"
        validationMessage={blank ? 'Give a reason' : undefined}
      >
        <Input
          size="small"
          value={reason}
          onChange={(_, data) => {
            setReason(data.value);
            setBlank(false);
          }}
        />
      </Field>
      <Button size="small" appearance="primary" type="submit" disabled={decide.busy}>
        {choice === 'approve' ? 'Confirm Approval' : 'Confirm Rejection'}
      </Button>
      <Button size="small" onClick={() => setChoice(null)} disabled={decide.busy}>
        Cancel
      </Button>
    </form>
  );
}

/** "Workflow Notifications": the person's own notifications, from the server. */
export function NotificationsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const styles = useStyles();
  const navigate = useNavigate();
  const notify = useNotify();
  const { data, isLoading, error } = useNotifications(open);
  const actions = useNotificationActions();
  const update = useAction((change: () => Promise<void>) => change(), {
    onError: (message) => notify.error('Could not update notifications', message),
  });
  const items = data?.notifications ?? [];

  return (
    <Dialog open={open} onOpenChange={(_, state) => onOpenChange(state.open)}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle
            action={
              <DialogTrigger action="close">
                <Button appearance="subtle" aria-label="Close" icon={<DismissRegular />} />
              </DialogTrigger>
            }
          >
            <span className={styles.title}>
              Workflow Notifications
              {data?.unreadCount ? (
                <Badge color="danger" aria-label={`${data.unreadCount} unread`}>
                  {data.unreadCount}
                </Badge>
              ) : null}
            </span>
          </DialogTitle>
          <DialogContent>
            {isLoading ? (
              <Spinner label="Loading notifications..." />
            ) : error ? (
              <Body1>{messageOf(error)}</Body1>
            ) : items.length === 0 ? (
              <div className={styles.empty}>
                <Subtitle2 as="p">You are all caught up</Subtitle2>
                <Body1>New notifications about your team and cases will appear here.</Body1>
              </div>
            ) : (
              <ul className={styles.list} aria-label="Notifications">
                {items.map((item) => (
                  <li
                    key={item.id}
                    className={mergeClasses(styles.item, !item.readAt && styles.unread)}
                  >
                    <div className={styles.text}>
                      {item.link ? (
                        <button
                          type="button"
                          className={styles.link}
                          onClick={() => {
                            void update.run(() => actions.markRead(item.id));
                            onOpenChange(false);
                            navigate(item.link ?? '/');
                          }}
                        >
                          <Subtitle2>{item.title}</Subtitle2>
                        </button>
                      ) : (
                        <Subtitle2>{item.title}</Subtitle2>
                      )}
                      <Body1>{item.body}</Body1>
                      <Caption1>{new Date(item.createdAt).toLocaleString()}</Caption1>
                      {item.subject?.type === 'settlement_approval' && !item.readAt ? (
                        <SettlementDecision item={item} />
                      ) : null}
                    </div>
                    <div className={styles.buttons}>
                      {!item.readAt ? (
                        <Button
                          size="small"
                          appearance="subtle"
                          icon={<CheckmarkRegular />}
                          aria-label={`Mark "${item.title}" read`}
                          onClick={() => void update.run(() => actions.markRead(item.id))}
                        />
                      ) : null}
                      <Button
                        size="small"
                        appearance="subtle"
                        icon={<DismissRegular />}
                        aria-label={`Dismiss "${item.title}"`}
                        onClick={() => void update.run(() => actions.dismiss(item.id))}
                      />
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </DialogContent>
          <DialogActions>
            <Caption1 className={styles.footer}>
              {countOf(items.length, 'notification')} · {data?.unreadCount ?? 0} unread
            </Caption1>
            <Button
              className={styles.actions}
              icon={<MailReadRegular />}
              disabled={!data?.unreadCount}
              onClick={() => void update.run(actions.markAllRead)}
            >
              Mark All Read
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
