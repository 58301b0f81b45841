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
import type { ReactNode } from 'react';
import { useNotify } from '../lib/toast';
import { useAction } from '../lib/use-action';

/** Asks before something that cannot be taken back; the action runs only on confirm. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  busyLabel = 'Working...',
  danger,
  failureTitle,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The dismissing button's label, when "Cancel" would read as the action itself. */
  cancelLabel?: string;
  busyLabel?: string;
  danger?: boolean;
  /** The title of the toast when the action fails; without it the caller reports failures. */
  failureTitle?: string;
  onConfirm(): Promise<unknown>;
  onClose(): void;
}) {
  const notify = useNotify();
  // A failed action keeps the dialog open, so it can be tried again.
  const confirm = useAction(
    async () => {
      await onConfirm();
      onClose();
    },
    { onError: (message) => failureTitle && notify.error(failureTitle, message) },
  );
  const { busy } = confirm;
  return (
    <Dialog
      open={open}
      modalType="alert"
      onOpenChange={(_, data) => !data.open && !busy && onClose()}
    >
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>
            {typeof children === 'string' ? <Body1>{children}</Body1> : children}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={onClose} disabled={busy}>
              {cancelLabel}
            </Button>
            <Button
              appearance="primary"
              style={danger ? { backgroundColor: 'var(--colorPaletteRedBackground3)' } : undefined}
              disabled={busy}
              onClick={() => void confirm.run()}
            >
              {busy ? busyLabel : confirmLabel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
