import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Textarea,
} from '@fluentui/react-components';
import type { BidderListItem } from '@contracts/bidders/bidders.schema';
import { useState } from 'react';
import { messageOf } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useBidderActions } from '../api/bidders';
import { fullName } from './score-style';

/** Send Invite: an e-mail inviting the bidder to bid, recorded on their profile. */
export function InviteDialog({
  bidder,
  onClose,
}: {
  bidder: BidderListItem | null;
  onClose(): void;
}) {
  const notify = useNotify();
  const actions = useBidderActions();
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  if (!bidder) return null;
  const send = async () => {
    setBusy(true);
    try {
      const result = await actions.invite([bidder.id], message.trim() || undefined);
      if (result.invited) notify.success(`Invitation sent to ${bidder.email}`);
      else notify.warning('No invitation was sent', 'This bidder has no email address.');
      setMessage('');
      onClose();
    } catch (caught) {
      notify.error('The invitation was not sent', messageOf(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && !busy && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Invite {fullName(bidder)}</DialogTitle>
          <DialogContent>
            <Body1 block>An invitation to bid goes to {bidder.email}.</Body1>
            <Field label="Message (optional)" hint="Leave empty to send the standard invitation.">
              <Textarea
                value={message}
                onChange={(_, data) => setMessage(data.value)}
                resize="vertical"
              />
            </Field>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button appearance="primary" onClick={() => void send()} disabled={busy}>
              {busy ? 'Sending...' : 'Send Invite'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
