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
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import {
  CheckmarkCircleRegular,
  DeleteRegular,
  DismissCircleRegular,
  EditRegular,
  LiveRegular,
  LockClosedRegular,
  MoreHorizontalRegular,
  SendRegular,
  SparkleRegular,
} from '@fluentui/react-icons';
import type { Auction } from '@contracts/auctions/auctions.schema';
import type { Permission } from '@contracts/identity/permissions';
import { useState, type ReactElement, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PermittedButton } from '../../../components/PermittedButton';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { useFeatureSlots } from '../../../lib/feature-slots';
import { needsPermission } from '../../../lib/permission-text';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useAuctionActions } from '../api/auctions';
import { canAssess, viewOfStatus } from './auction-style';

const useStyles = makeStyles({
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  // Its children keep their height; the content scrolls instead of squeezing them.
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    '& > *': { flexShrink: 0 },
  },
  danger: {
    backgroundColor: tokens.colorPaletteRedBackground3,
    ':hover': { backgroundColor: tokens.colorPaletteRedForeground1 },
  },
});

type Move = 'publish' | 'goLive' | 'close' | 'cancel' | 'delete';

const listOf = (items: string[]) =>
  items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** The lot numbers a refused close names as not clerked yet. */
function unclerkedOf(error: unknown): string[] | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const unclerked = (error.details as { unclerked?: unknown } | undefined)?.unclerked;
  return Array.isArray(unclerked) ? unclerked.map(String) : null;
}

interface MoveText {
  title: string;
  body: string;
  confirm: string;
  busy: string;
  done: string;
}

const moveText = (auction: Auction): Record<Move, MoveText> => ({
  publish: {
    title: `Publish ${auction.title}?`,
    body: 'It moves from Draft to Upcoming: bidders can then be invited and registered. It goes live by itself at its start time.',
    confirm: 'Publish',
    busy: 'Publishing...',
    done: 'Auction published',
  },
  goLive: {
    title: `Go live with ${auction.title}?`,
    body: 'Bidding opens now, before the scheduled start. Lots can then be clerked as they sell.',
    confirm: 'Go Live',
    busy: 'Going live...',
    done: 'The auction is live',
  },
  close: {
    title: `Close ${auction.title}?`,
    body: 'Closing needs every lot clerked (sold or passed). The results become final and every participating bidder’s Lotwise Score is recalculated.',
    confirm: 'Close Auction',
    busy: 'Closing...',
    done: 'Auction closed',
  },
  cancel: {
    title: `Cancel ${auction.title}?`,
    body: 'A cancelled auction cannot be reopened. Say why: the reason is kept with it and in the audit log.',
    confirm: 'Cancel Auction',
    busy: 'Cancelling...',
    done: 'Auction cancelled',
  },
  delete: {
    title: `Delete ${auction.title}?`,
    body: 'The auction is removed from your account. An auction that has lots, registrations or results cannot be deleted; cancel it instead.',
    confirm: 'Delete Auction',
    busy: 'Deleting...',
    done: 'Auction deleted',
  },
});

function MoveDialog({
  auction,
  move,
  onClose,
}: {
  auction: Auction;
  move: Move | null;
  onClose(): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const navigate = useNavigate();
  const actions = useAuctionActions();
  const [reason, setReason] = useState('');
  const [unclerked, setUnclerked] = useState<string[] | null>(null);
  // The last move stays in the dialog's words while it fades out.
  const [shown, setShown] = useState(move);
  if (move !== null && move !== shown) setShown(move);
  const text = shown ? moveText(auction)[shown] : null;
  const clear = () => {
    setReason('');
    setUnclerked(null);
    onClose();
  };
  const run = useAction(
    async () => {
      if (move === 'publish') await actions.publish(auction.id);
      else if (move === 'goLive') await actions.goLive(auction.id);
      else if (move === 'close') await actions.close(auction.id);
      else if (move === 'cancel') await actions.cancel(auction.id, reason);
      else if (move === 'delete') {
        await actions.remove(auction.id);
        navigate(`/auctions/${viewOfStatus[auction.status]}`, { replace: true });
      }
      if (text) notify.success(text.done);
      clear();
    },
    { onError: (_, error) => setUnclerked(unclerkedOf(error)) },
  );
  const finish = () => {
    run.reset();
    clear();
  };
  const close = () => !run.busy && finish();
  const needsReason = shown === 'cancel';
  const danger = shown === 'cancel' || shown === 'delete';

  let problem: ReactNode = null;
  if (unclerked) {
    problem = (
      <MessageBar intent="warning" layout="multiline">
        <MessageBarBody>
          {unclerked.length === 1
            ? `Lot ${unclerked[0]} is not clerked yet.`
            : `Lots ${listOf(unclerked)} are not clerked yet.`}{' '}
          Record each as sold or passed, then close the auction.
        </MessageBarBody>
        <MessageBarActions>
          <Button
            onClick={() => {
              finish();
              navigate(`/auctions/${auction.id}/lots?clerk=1`);
            }}
          >
            Clerk them now
          </Button>
        </MessageBarActions>
      </MessageBar>
    );
  } else if (run.error) {
    problem = (
      <MessageBar intent="error" layout="multiline">
        <MessageBarBody>{run.error}</MessageBarBody>
      </MessageBar>
    );
  }

  return (
    <Dialog
      open={move !== null}
      modalType="alert"
      onOpenChange={(_, data) => !data.open && close()}
    >
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{text?.title}</DialogTitle>
          <DialogContent className={styles.content}>
            <Body1>{text?.body}</Body1>
            {needsReason ? (
              <Field label="Reason" required validationMessage={run.fieldErrors.reason}>
                <Textarea
                  value={reason}
                  onChange={(_, data) => setReason(data.value)}
                  resize="vertical"
                />
              </Field>
            ) : null}
            {problem}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={close} disabled={run.busy}>
              {shown === 'cancel' ? 'Keep Auction' : 'Cancel'}
            </Button>
            <Button
              appearance="primary"
              className={danger ? styles.danger : undefined}
              disabled={run.busy || (needsReason && !reason.trim()) || unclerked !== null}
              onClick={() => void run.run()}
            >
              {run.busy ? text?.busy : text?.confirm}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

function MenuAction({
  permission,
  icon,
  onClick,
  children,
}: {
  permission: Permission;
  icon: ReactElement;
  onClick(): void;
  children: ReactNode;
}) {
  const can = useCan();
  const allowed = can(permission);
  return (
    <MenuItem
      icon={icon}
      disabled={!allowed}
      subText={allowed ? undefined : needsPermission(permission)}
      onClick={onClick}
    >
      {children}
    </MenuItem>
  );
}

/**
 * What can be done with the auction now: the lifecycle move its status allows (Publish, Go Live,
 * Close Auction), Edit, the AI assessment, and under More, Cancel and Delete. Each is there for
 * everyone and says which permission it needs to those without it.
 */
export function LifecycleActions({ auction }: { auction: Auction }) {
  const { AuctionSyncActions } = useFeatureSlots();
  const styles = useStyles();
  const navigate = useNavigate();
  const location = useLocation();
  const [move, setMove] = useState<Move | null>(null);
  const { status } = auction;
  const cancellable = status === 'Draft' || status === 'Upcoming' || status === 'Active';
  return (
    <div className={styles.bar}>
      {status === 'Draft' ? (
        <PermittedButton
          permission="auctions:publish"
          appearance="primary"
          icon={<SendRegular />}
          onClick={() => setMove('publish')}
        >
          Publish
        </PermittedButton>
      ) : null}
      {status === 'Upcoming' ? (
        <PermittedButton
          permission="auctions:go_live"
          appearance="primary"
          icon={<LiveRegular />}
          onClick={() => setMove('goLive')}
        >
          Go Live
        </PermittedButton>
      ) : null}
      {status === 'Active' ? (
        <PermittedButton
          permission="auctions:close"
          appearance="primary"
          icon={<LockClosedRegular />}
          onClick={() => setMove('close')}
        >
          Close Auction
        </PermittedButton>
      ) : null}
      <PermittedButton
        permission="auctions:edit"
        icon={<EditRegular />}
        onClick={() =>
          navigate(`/auctions/${auction.id}/edit`, {
            state: { ...(location.state as object | null), openedFromPage: true },
          })
        }
      >
        Edit Auction
      </PermittedButton>
      {canAssess(status) ? (
        <PermittedButton
          permission="bidders:assessment"
          icon={<SparkleRegular />}
          onClick={() =>
            navigate(`/auctions/${auction.id}/assessment`, {
              state: { ...(location.state as object | null), openedFromPage: true },
            })
          }
        >
          AI Bidder Assessment
        </PermittedButton>
      ) : null}
      {AuctionSyncActions ? (
        <AuctionSyncActions auctionId={auction.id} importedFrom={auction.importedFrom} />
      ) : null}
      <Menu positioning="below-end">
        <MenuTrigger disableButtonEnhancement>
          <Button icon={<MoreHorizontalRegular />} aria-label="More actions" />
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            {cancellable ? (
              <MenuAction
                permission="auctions:close"
                icon={<DismissCircleRegular />}
                onClick={() => setMove('cancel')}
              >
                Cancel Auction
              </MenuAction>
            ) : (
              <MenuItem icon={<CheckmarkCircleRegular />} disabled subText="Its status is final">
                {status === 'Completed' ? 'Completed' : 'Cancelled'}
              </MenuItem>
            )}
            <MenuAction
              permission="auctions:delete"
              icon={<DeleteRegular />}
              onClick={() => setMove('delete')}
            >
              Delete Auction
            </MenuAction>
          </MenuList>
        </MenuPopover>
      </Menu>
      <MoveDialog auction={auction} move={move} onClose={() => setMove(null)} />
    </div>
  );
}
