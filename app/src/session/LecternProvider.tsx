import { Suspense, use, type ReactNode } from 'react';
import { loadLectern, type Lectern } from '../data';
import { LoadingScreen } from './LoadingScreen';
import { LecternContext } from './use-lectern';

let appLectern: Promise<Lectern> | null = null;

/** Spec section 4: any 401 removes the token (the HTTP client does) and hard-redirects to /login. */
function redirectToLogin() {
  if (window.location.pathname !== '/login') window.location.assign('/login');
}

/**
 * One data layer per page, loaded on first use (its chunk holds Dexie and the sync engine: main.tsx starts
 * it before the first render, beside the screens' JavaScript), so a test can hand in its own instead.
 */
export function browserLectern(): Promise<Lectern> {
  appLectern ??= loadLectern({ onUnauthorized: redirectToLogin });
  return appLectern;
}

function LoadedLectern({ children }: { children: ReactNode }) {
  return <LecternContext value={use(browserLectern())}>{children}</LecternContext>;
}

export function LecternProvider({ lectern, children }: { lectern?: Lectern; children: ReactNode }) {
  if (lectern) return <LecternContext value={lectern}>{children}</LecternContext>;
  return (
    <Suspense fallback={<LoadingScreen />}>
      <LoadedLectern>{children}</LoadedLectern>
    </Suspense>
  );
}
