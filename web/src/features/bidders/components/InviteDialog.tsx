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
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
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
  const send = useAction(
    async (invited: BidderListItem) => {
      const result = await actions.invite([invited.id], message.trim() || undefined);
      if (result.invited) notify.success(`Invitation sent to ${invited.email}`);
      else notify.warning('No invitation was sent', 'This bidder has no email address.');
      setMessage('');
      onClose();
    },
    { onError: (text) => notify.error('The invitation was not sent', text) },
  );
  if (!bidder) return null;
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && !send.busy && onClose()}>
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
            <Button onClick={onClose} disabled={send.busy}>
              Cancel
            </Button>
            <Button appearance="primary" onClick={() => void send.run(bidder)} disabled={send.busy}>
              {send.busy ? 'Sending...' : 'Send Invite'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
