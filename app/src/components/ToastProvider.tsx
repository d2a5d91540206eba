import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { TOAST_DURATION_MS } from '@lectern/shared-schema';
import { ToastContext } from './toast-context';
import type { Toast, ToastApi, ToastType } from './toast-context';
import { AlertIcon, CheckIcon, CloseIcon, InfoIcon, WarningIcon } from './icons';

const TYPE_LABEL: Record<ToastType, string> = {
  success: 'Success',
  error: 'Error',
  info: 'Information',
  warning: 'Warning',
};

const TYPE_ICON: Record<ToastType, (props: { size?: number }) => ReactNode> = {
  success: CheckIcon,
  error: AlertIcon,
  info: InfoIcon,
  warning: WarningIcon,
};

/** At most this many toasts show at once; a newer one pushes out the oldest. */
export const MAX_VISIBLE_TOASTS = 3;

/** Holds the toasts on screen and removes each when its lifetime ends. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const nextId = useRef(1);

  const dismissToast = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const showToast = useCallback(
    (message: string, type: ToastType = 'info', durationMs: number = TOAST_DURATION_MS) => {
      const id = nextId.current++;
      // A burst of toasts would bury a phone's screen: only the newest few stay.
      setToasts((current) => [...current, { id, message, type }].slice(-MAX_VISIBLE_TOASTS));
      timers.current.set(
        id,
        setTimeout(() => dismissToast(id), durationMs),
      );
      return id;
    },
    [dismissToast],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const api = useMemo<ToastApi>(() => ({ showToast, dismissToast }), [showToast, dismissToast]);

  return (
    <ToastContext value={api}>
      {children}
      <ToastRegion toasts={toasts} onDismiss={dismissToast} />
    </ToastContext>
  );
}

function ToastRegion({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  // The region stays in the page while empty: screen readers only announce changes to a live region
  // they already know about.
  return (
    <section className="toast-region" aria-label="Notifications" aria-live="polite">
      {toasts.map((toast) => {
        const Icon = TYPE_ICON[toast.type];
        // Several spec texts bring their own check mark ('✓ Highlight added!'); a second one would stutter.
        const bringsOwnMark = toast.message.startsWith('✓');
        return (
          <div
            key={toast.id}
            className={`toast toast--${toast.type}`}
            role={toast.type === 'error' ? 'alert' : 'status'}
          >
            {!bringsOwnMark && (
              <span className="toast__icon">
                <Icon size={14} />
              </span>
            )}
            <p className="toast__message">
              <span className="sr-only">{TYPE_LABEL[toast.type]}: </span>
              {toast.message}
            </p>
            <button
              type="button"
              className="icon-button"
              onClick={() => onDismiss(toast.id)}
              aria-label="Dismiss notification"
            >
              <CloseIcon size={16} />
            </button>
          </div>
        );
      })}
    </section>
  );
}
