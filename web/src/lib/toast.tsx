import {
  Link,
  Toast,
  ToastBody,
  Toaster,
  ToastTitle,
  ToastTrigger,
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

/** A follow-up the toast offers, such as opening what it is about. */
export interface ToastAction {
  label: string;
  run(): void;
}

export interface Notify {
  success(title: string, body?: string, action?: ToastAction): void;
  error(title: string, body?: string, action?: ToastAction): void;
  info(title: string, body?: string, action?: ToastAction): void;
  warning(title: string, body?: string, action?: ToastAction): void;
}

const NotifyContext = createContext<Notify | undefined>(undefined);

export function ToastHost({ children }: { children: ReactNode }) {
  const toasterId = useId('toaster');
  const { dispatchToast } = useToastController(toasterId);
  const phone = useMediaQuery('(max-width: 760px)');
  const show = useCallback(
    (intent: ToastIntent, title: string, body?: string, action?: ToastAction) =>
      dispatchToast(
        <Toast>
          <ToastTitle
            action={
              action ? (
                <ToastTrigger>
                  <Link onClick={action.run}>{action.label}</Link>
                </ToastTrigger>
              ) : undefined
            }
          >
            {title}
          </ToastTitle>
          {body ? <ToastBody>{body}</ToastBody> : null}
        </Toast>,
        { intent, timeout: TOAST_TIMEOUT_MS },
      ),
    [dispatchToast],
  );
  const notify = useMemo<Notify>(
    () => ({
      success: (title, body, action) => show('success', title, body, action),
      error: (title, body, action) => show('error', title, body, action),
      info: (title, body, action) => show('info', title, body, action),
      warning: (title, body, action) => show('warning', title, body, action),
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
