import { useEffect, useState, type ReactNode } from 'react';
import { loadLectern, type Lectern } from '../data';
import { START_LIST } from '../screens/dashboard/start-list';
import { LoadingScreen } from './LoadingScreen';
import { LecternContext } from './use-lectern';

let appLectern: Promise<Lectern> | null = null;
/** The data layer once loaded: a later mount (a test, a remount) has it at once. */
let loadedLectern: Lectern | null = null;

/** Spec section 4: any 401 removes the token (the HTTP client does) and hard-redirects to /login. */
function redirectToLogin() {
  if (window.location.pathname !== '/login') window.location.assign('/login');
}

/**
 * One data layer per page, loaded on first use (its chunk holds Dexie and the sync engine: main.tsx starts
 * it before the first render, beside the screens' JavaScript), so a test can hand in its own instead.
 */
export function browserLectern(): Promise<Lectern> {
  appLectern ??= loadLectern({ onUnauthorized: redirectToLogin }).then((lectern) => {
    // Opening on the dashboard signed in: its first cards are read now, beside the session's user and the
    // first render, rather than once the dashboard has rendered.
    if (window.location.pathname === '/' && lectern.auth.hasToken()) {
      const { query, order, start, end } = START_LIST;
      void lectern.articles.readAhead(query, order, start, end);
    }
    loadedLectern = lectern;
    return lectern;
  });
  return appLectern;
}

/**
 * The loading screen until the data layer's chunk is in, then the app. Waited for with state rather than
 * Suspense: React holds back the content of a Suspense boundary until its fallback has shown for 300 ms,
 * which kept the session's check (and so the first cards) waiting on a chunk loaded in 30.
 */
function LoadedLectern({ children }: { children: ReactNode }) {
  const [loaded, setLoaded] = useState<{ lectern: Lectern } | { error: unknown } | null>(() =>
    loadedLectern ? { lectern: loadedLectern } : null,
  );
  useEffect(() => {
    if (loaded) return undefined;
    let current = true;
    browserLectern().then(
      (lectern) => current && setLoaded({ lectern }),
      (error: unknown) => current && setLoaded({ error }),
    );
    return () => {
      current = false;
    };
  }, [loaded]);
  if (!loaded) return <LoadingScreen />;
  // A chunk that couldn't load reaches the error boundary above, as a failed render would.
  if ('error' in loaded) throw loaded.error;
  return <LecternContext value={loaded.lectern}>{children}</LecternContext>;
}

export function LecternProvider({ lectern, children }: { lectern?: Lectern; children: ReactNode }) {
  if (lectern) return <LecternContext value={lectern}>{children}</LecternContext>;
  return <LoadedLectern>{children}</LoadedLectern>;
}
