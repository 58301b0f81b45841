import {
  Body1,
  Button,
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
  MessageBarTitle,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import type { Auction } from '@contracts/auctions/auctions.schema';
import type { Registration } from '@contracts/auctions/registrations/registrations.schema';
import type { BidderListItem } from '@contracts/bidders/bidders.schema';
import { useState, type FormEvent } from 'react';
import { formatMoney, parseMoney, toMajorText } from '../../../lib/money';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useAuctionActions } from '../api/auctions';
import { BidderPicker, bidderName } from './BidderPicker';
import { MoneyInput } from '../../../components/MoneyInput';

const useStyles = makeStyles({
  surface: { maxWidth: '560px', width: '100%' },
  // Its children keep their height; the content scrolls instead of squeezing them.
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    '& > *': { flexShrink: 0 },
  },
  reasons: { margin: 0, paddingInlineStart: tokens.spacingHorizontalL },
});

export const statusLabels: Record<Registration['status'], string> = {
  invited: 'Invited',
  pending: 'Pending review',
  approved: 'Approved',
  denied: 'Denied',
};

/** Why each bidder already on the auction cannot be registered or invited again. */
export const takenBy = (registrations: Registration[]) =>
  Object.fromEntries(
    registrations.map((registration) => [
      registration.bidderId,
      registration.status === 'invited'
        ? 'already invited'
        : `already registered (${statusLabels[registration.status].toLowerCase()})`,
    ]),
  );

const limitText = (auction: Auction, limit: number | null) =>
  limit === null ? 'no limit' : formatMoney(limit, auction.currency);

/**
 * Register Bidder: the house's rules decide at once (approved, pending review or denied) and the
 * dialog says which, with the reasons, before the next one is registered.
 */
export function RegisterBidderDialog({
  auction,
  registrations,
  open,
  onClose,
}: {
  auction: Auction;
  registrations: Registration[];
  open: boolean;
  onClose(): void;
}) {
  const styles = useStyles();
  const actions = useAuctionActions();
  const [bidder, setBidder] = useState<BidderListItem | null>(null);
  const [paddle, setPaddle] = useState('');
  const [outcome, setOutcome] = useState<Registration | null>(null);
  const register = useAction(async () => {
    if (!bidder) return;
    setOutcome(await actions.register(auction.id, bidder.id, paddle.trim() || undefined));
    setBidder(null);
    setPaddle('');
  });
  const close = () => {
    if (register.busy) return;
    setBidder(null);
    setPaddle('');
    setOutcome(null);
    register.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (bidder) void register.run();
  };
  const intent =
    outcome?.status === 'approved' ? 'success' : outcome?.status === 'denied' ? 'error' : 'warning';
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface className={styles.surface}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>Register Bidder</DialogTitle>
            <DialogContent className={styles.content}>
              <Body1>
                Your house&apos;s rules decide each registration from the bidder&apos;s record:
                approved, pending review, or denied, with the reasons.
              </Body1>
              {outcome ? (
                <MessageBar intent={intent} layout="multiline">
                  <MessageBarBody>
                    <MessageBarTitle>
                      {outcome.bidderName}: {statusLabels[outcome.status].toLowerCase()}
                      {outcome.status === 'approved'
                        ? `, bid limit ${limitText(auction, outcome.bidLimit)}`
                        : ''}
                    </MessageBarTitle>
                    {outcome.reasons.length ? (
                      <ul className={styles.reasons}>
                        {outcome.reasons.map((reason) => (
                          <li key={reason}>{reason}</li>
                        ))}
                      </ul>
                    ) : null}
                  </MessageBarBody>
                </MessageBar>
              ) : null}
              <BidderPicker
                label="Bidder"
                selected={bidder ? [bidder] : []}
                onChange={(chosen) => {
                  setBidder(chosen[0] ?? null);
                  register.reset();
                }}
                unavailable={takenBy(
                  registrations.filter((registration) => registration.status !== 'invited'),
                )}
              />
              <Field
                label="Paddle number (optional)"
                hint="The number the bidder holds up in the room."
                validationMessage={register.fieldErrors.paddle}
              >
                <Input value={paddle} onChange={(_, data) => setPaddle(data.value)} />
              </Field>
              {register.error && !register.fieldErrors.paddle ? (
                <MessageBar intent="error" layout="multiline">
                  <MessageBarBody>{register.error}</MessageBarBody>
                </MessageBar>
              ) : null}
            </DialogContent>
            <DialogActions>
              <Button onClick={close} disabled={register.busy}>
                {outcome ? 'Done' : 'Cancel'}
              </Button>
              <Button appearance="primary" type="submit" disabled={!bidder || register.busy}>
                {register.busy ? 'Registering...' : outcome ? 'Register Another' : 'Register'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

/** Invite Bidders: an email to each chosen bidder, recorded on the auction as Invited. */
export function InviteBiddersDialog({
  auction,
  registrations,
  open,
  onClose,
}: {
  auction: Auction;
  registrations: Registration[];
  open: boolean;
  onClose(): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useAuctionActions();
  const [bidders, setBidders] = useState<BidderListItem[]>([]);
  const [message, setMessage] = useState('');
  const clear = () => {
    setBidders([]);
    setMessage('');
    onClose();
  };
  const send = useAction(async () => {
    const result = await actions.invite(
      auction.id,
      bidders.map((bidder) => bidder.id),
      message,
    );
    notify.success(
      `${countOf(result.invited, 'invitation')} sent`,
      result.withoutEmail.length
        ? `${countOf(result.withoutEmail.length, 'bidder')} had no email address and ${result.withoutEmail.length === 1 ? 'was' : 'were'} not invited.`
        : undefined,
    );
    clear();
  });
  const finish = () => {
    send.reset();
    clear();
  };
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !send.busy && finish()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>Invite Bidders</DialogTitle>
          <DialogContent className={styles.content}>
            <Body1>
              Each bidder chosen gets an email inviting them to register for this auction.
            </Body1>
            <BidderPicker
              label="Bidders"
              multiselect
              selected={bidders}
              onChange={(chosen) => {
                setBidders(chosen);
                send.reset();
              }}
              unavailable={takenBy(registrations)}
              error={send.fieldErrors.bidderIds}
            />
            {bidders.length ? (
              <Body1>
                {countOf(bidders.length, 'bidder')} chosen: {bidders.map(bidderName).join(', ')}
              </Body1>
            ) : null}
            <Field label="Message (optional)" hint="Leave empty to send the standard invitation.">
              <Textarea
                value={message}
                onChange={(_, data) => setMessage(data.value)}
                resize="vertical"
              />
            </Field>
            {send.error && !send.fieldErrors.bidderIds ? (
              <MessageBar intent="error" layout="multiline">
                <MessageBarBody>{send.error}</MessageBarBody>
              </MessageBar>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button onClick={finish} disabled={send.busy}>
              Cancel
            </Button>
            <Button
              appearance="primary"
              disabled={!bidders.length || send.busy}
              onClick={() => void send.run()}
            >
              {send.busy
                ? 'Sending...'
                : `Send ${bidders.length ? countOf(bidders.length, 'Invitation') : 'Invitations'}`}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** Approve or deny a pending registration, with the reason; approving may set a bid limit. */
export function DecisionDialog({
  auction,
  registration,
  decision,
  onClose,
}: {
  auction: Auction;
  registration: Registration | null;
  decision: 'approve' | 'deny';
  onClose(): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useAuctionActions();
  const [reason, setReason] = useState('');
  const [limit, setLimit] = useState('');
  const [limitError, setLimitError] = useState<string>();
  const clear = () => {
    setReason('');
    setLimit('');
    setLimitError(undefined);
    onClose();
  };
  const decide = useAction(async (bidLimit: number | null) => {
    if (!registration) return;
    await actions.decide(auction.id, registration.bidderId, {
      decision,
      reason,
      ...(bidLimit === null ? {} : { bidLimit }),
    });
    notify.success(
      decision === 'approve'
        ? `${registration.bidderName} approved`
        : `${registration.bidderName} denied`,
    );
    clear();
  });
  const finish = () => {
    decide.reset();
    clear();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseMoney(limit, auction.currency);
    if (!parsed.ok) {
      setLimitError(`Bid limit ${parsed.message}`);
      return;
    }
    setLimitError(undefined);
    void decide.run(decision === 'approve' ? parsed.minor : null);
  };
  return (
    <Dialog
      open={registration !== null}
      onOpenChange={(_, data) => !data.open && !decide.busy && finish()}
    >
      <DialogSurface className={styles.surface}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>
              {decision === 'approve' ? 'Approve' : 'Deny'} {registration?.bidderName}
            </DialogTitle>
            <DialogContent className={styles.content}>
              <Field
                label="Reason"
                required
                hint="Kept with the registration and in the audit log."
                validationMessage={decide.fieldErrors.reason}
              >
                <Textarea
                  value={reason}
                  onChange={(_, data) => setReason(data.value)}
                  resize="vertical"
                />
              </Field>
              {decision === 'approve' && registration ? (
                <MoneyInput
                  label="Bid limit (optional)"
                  currency={auction.currency}
                  value={limit}
                  onChange={setLimit}
                  error={limitError ?? decide.fieldErrors.bidLimit}
                  hint={`Leave blank for the tier's limit (${limitText(auction, registration.bidLimit)}).`}
                />
              ) : null}
              {decide.error && !Object.keys(decide.fieldErrors).length ? (
                <MessageBar intent="error" layout="multiline">
                  <MessageBarBody>{decide.error}</MessageBarBody>
                </MessageBar>
              ) : null}
            </DialogContent>
            <DialogActions>
              <Button onClick={finish} disabled={decide.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={!reason.trim() || decide.busy}>
                {decide.busy ? 'Saving...' : decision === 'approve' ? 'Approve' : 'Deny'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

/** Raise, lower or lift an approved bidder's limit, with the reason. */
export function BidLimitDialog({
  auction,
  registration,
  onClose,
}: {
  auction: Auction;
  registration: Registration | null;
  onClose(): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useAuctionActions();
  const [limit, setLimit] = useState('');
  const [noLimit, setNoLimit] = useState(false);
  const [reason, setReason] = useState('');
  const [limitError, setLimitError] = useState<string>();
  const [shownId, setShownId] = useState<string | null>(null);
  if (registration && registration.id !== shownId) {
    setShownId(registration.id);
    setLimit(toMajorText(registration.bidLimit, auction.currency));
    setNoLimit(registration.bidLimit === null);
    setReason('');
    setLimitError(undefined);
  }
  const clear = () => {
    setShownId(null);
    onClose();
  };
  const save = useAction(async (bidLimit: number | null) => {
    if (!registration) return;
    await actions.setBidLimit(auction.id, registration.bidderId, { bidLimit, reason });
    notify.success(
      `${registration.bidderName}: ${bidLimit === null ? 'no bid limit' : `bid limit ${formatMoney(bidLimit, auction.currency)}`}`,
    );
    clear();
  });
  const finish = () => {
    save.reset();
    clear();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (noLimit) {
      void save.run(null);
      return;
    }
    const parsed = parseMoney(limit, auction.currency);
    if (!parsed.ok || parsed.minor === null) {
      setLimitError(
        parsed.ok ? 'Enter a bid limit, or tick No limit' : `Bid limit ${parsed.message}`,
      );
      return;
    }
    setLimitError(undefined);
    void save.run(parsed.minor);
  };
  return (
    <Dialog
      open={registration !== null}
      onOpenChange={(_, data) => !data.open && !save.busy && finish()}
    >
      <DialogSurface className={styles.surface}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>Bid limit for {registration?.bidderName}</DialogTitle>
            <DialogContent className={styles.content}>
              <Body1>
                Now {registration ? limitText(auction, registration.bidLimit) : ''}. The change and
                its reason are kept in the audit log.
              </Body1>
              <MoneyInput
                label="Bid limit"
                currency={auction.currency}
                value={noLimit ? '' : limit}
                onChange={setLimit}
                error={limitError ?? save.fieldErrors.bidLimit}
                inputProps={{ disabled: noLimit }}
              />
              <Checkbox
                label="No limit"
                checked={noLimit}
                onChange={(_, data) => setNoLimit(Boolean(data.checked))}
              />
              <Field label="Reason" required validationMessage={save.fieldErrors.reason}>
                <Textarea
                  value={reason}
                  onChange={(_, data) => setReason(data.value)}
                  resize="vertical"
                />
              </Field>
              {save.error && !Object.keys(save.fieldErrors).length ? (
                <MessageBar intent="error" layout="multiline">
                  <MessageBarBody>{save.error}</MessageBarBody>
                </MessageBar>
              ) : null}
            </DialogContent>
            <DialogActions>
              <Button onClick={finish} disabled={save.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={!reason.trim() || save.busy}>
                {save.busy ? 'Saving...' : 'Save Bid Limit'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
