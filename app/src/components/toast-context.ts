import { createContext } from 'react';

/** Spec section 8: the four kinds of toast. */
export type ToastType = 'success' | 'error' | 'info' | 'warning';

export interface Toast {
  id: number;
  message: string;
  type: ToastType;
}

export interface ToastApi {
  /** Shows a toast for `durationMs` (TOAST_DURATION_MS by default) and returns its id. */
  showToast: (message: string, type?: ToastType, durationMs?: number) => number;
  dismissToast: (id: number) => void;
}

export const ToastContext = createContext<ToastApi | null>(null);
