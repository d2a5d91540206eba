import type { ReactNode } from 'react';
import { createLectern, type Lectern } from '../data';
import { LecternContext } from './use-lectern';

let appLectern: Lectern | null = null;

/** Spec section 4: any 401 removes the token (the HTTP client does) and hard-redirects to /login. */
function redirectToLogin() {
  if (window.location.pathname !== '/login') window.location.assign('/login');
}

/** One data layer per page, created on first use so a test can hand in its own instead. */
export function browserLectern(): Lectern {
  appLectern ??= createLectern({ onUnauthorized: redirectToLogin });
  return appLectern;
}

export function LecternProvider({ lectern, children }: { lectern?: Lectern; children: ReactNode }) {
  return <LecternContext value={lectern ?? browserLectern()}>{children}</LecternContext>;
}
