import {
  Toast,
  ToastBody,
  Toaster,
  ToastTitle,
  useId,
  useToastController,
  type ToastIntent,
} from '@fluentui/react-components';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { useMediaQuery } from './use-media-query';

/**
 * At most three toasts at a time, each for 4000 ms. Bottom-left on a wide screen, clear of the
 * panels that open from the right and their footer buttons; along the top on a phone, where those
 * panels fill the screen and keep their actions at the bottom.
 */
export const TOAST_LIMIT = 3;
export const TOAST_TIMEOUT_MS = 4000;

export interface Notify {
  success(title: string, body?: string): void;
  error(title: string, body?: string): void;
  info(title: string, body?: string): void;
  warning(title: string, body?: string): void;
}

const NotifyContext = createContext<Notify | undefined>(undefined);

export function ToastHost({ children }: { children: ReactNode }) {
  const toasterId = useId('toaster');
  const { dispatchToast } = useToastController(toasterId);
  const phone = useMediaQuery('(max-width: 760px)');
  const show = useCallback(
    (intent: ToastIntent, title: string, body?: string) =>
      dispatchToast(
        <Toast>
          <ToastTitle>{title}</ToastTitle>
          {body ? <ToastBody>{body}</ToastBody> : null}
        </Toast>,
        { intent, timeout: TOAST_TIMEOUT_MS },
      ),
    [dispatchToast],
  );
  const notify = useMemo<Notify>(
    () => ({
      success: (title, body) => show('success', title, body),
      error: (title, body) => show('error', title, body),
      info: (title, body) => show('info', title, body),
      warning: (title, body) => show('warning', title, body),
    }),
    [show],
  );
  return (
    <NotifyContext.Provider value={notify}>
      {children}
      <Toaster
        toasterId={toasterId}
        position={phone ? 'top' : 'bottom-start'}
        limit={TOAST_LIMIT}
        timeout={TOAST_TIMEOUT_MS}
        pauseOnHover
      />
    </NotifyContext.Provider>
  );
}

export function useNotify(): Notify {
  const notify = useContext(NotifyContext);
  if (!notify) throw new Error('useNotify needs ToastHost');
  return notify;
}
