import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';
import { useCallback, useEffect, useState } from 'react';
import { useBlocker, type Location } from 'react-router';

/** By default only a new page is leaving; a changed query (a filter, a dialog's flag) is not. */
const newPage = (current: Location, next: Location) => current.pathname !== next.pathname;

/**
 * Asks before someone leaves while work that would be lost is under way (files still going to
 * storage): the browser's own prompt on reload or close, and a dialog on a move inside the app,
 * whose Leave runs `onLeave` (say, cancelling the upload) before going. Mount one at a time: the
 * router takes one blocker.
 */
export function LeaveGuard({
  active,
  title,
  message,
  leaveLabel,
  busyLabel = 'Leaving...',
  onLeave,
  blocks = newPage,
}: {
  active: boolean;
  title: string;
  message: string;
  leaveLabel: string;
  /** The leave button's label while `onLeave` runs. */
  busyLabel?: string;
  onLeave(): Promise<unknown> | void;
  /** Which moves count as leaving. */
  blocks?(current: Location, next: Location): boolean;
}) {
  const [leaving, setLeaving] = useState(false);
  const blocker = useBlocker(
    useCallback(
      ({ currentLocation, nextLocation }: { currentLocation: Location; nextLocation: Location }) =>
        active && blocks(currentLocation, nextLocation),
      [active, blocks],
    ),
  );

  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);

  // The work ended while the question was open: nothing is lost by going any more.
  useEffect(() => {
    if (!active && blocker.state === 'blocked' && !leaving) blocker.proceed();
  }, [active, blocker, leaving]);

  const leave = async () => {
    setLeaving(true);
    try {
      await onLeave();
    } finally {
      setLeaving(false);
      if (blocker.state === 'blocked') blocker.proceed();
    }
  };

  return (
    <Dialog
      open={blocker.state === 'blocked'}
      modalType="alert"
      onOpenChange={(_, data) => !data.open && !leaving && blocker.reset?.()}
    >
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>
            <Body1>{message}</Body1>
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" disabled={leaving} onClick={() => blocker.reset?.()}>
              Stay
            </Button>
            <Button disabled={leaving} onClick={() => void leave()}>
              {leaving ? busyLabel : leaveLabel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
