import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AuthResponse, LoginBody, RegisterBody, User } from '@lectern/shared-schema';
import { UnsyncedWritesError } from '../data';
import { useLectern } from './use-lectern';
import {
  SessionContext,
  SignInCancelledError,
  type LogoutEverywhereOptions,
  type LogoutOptions,
  type Session,
} from './use-session';
import { UnsyncedLogoutDialog, type UnsyncedLossCause } from './UnsyncedLogoutDialog';

/** The unsynced-changes warning on screen: what would lose them, and what each answer does. */
interface UnsyncedPrompt {
  count: number;
  cause: UnsyncedLossCause;
  confirm: () => Promise<unknown>;
  cancel: () => void;
}

/**
 * The session rules of spec section 4: loading until the stored token is checked; no token, or a token
 * the server refuses, means signed out; logout clears everything even when the server can't be told.
 * Nothing wipes changes the server hasn't got without the unsynced-changes warning.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const lectern = useLectern();
  const navigate = useNavigate();
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState(() => lectern.auth.hasToken());
  const [prompt, setPrompt] = useState<UnsyncedPrompt | null>(null);

  useEffect(() => {
    if (!lectern.auth.hasToken()) return;
    let current = true;
    let checked = false;
    // The user this device kept opens the app at once, as it does offline: the device's library is on
    // screen while the server checks the token (a round trip the first cards would otherwise wait for).
    // A token the server refuses still ends the session when the check answers.
    void lectern.auth.keptUser().then((kept) => {
      if (!current || checked || !kept) return;
      setUser(kept);
      setLoading(false);
    });
    lectern.auth
      .me()
      .then(({ user: signedIn }) => {
        if (!current) return;
        setUser(signedIn);
        lectern.sync.start();
      })
      .catch(() => {
        if (!current) return;
        // A 401 has already removed it (and is on its way to /login); any other failure ends the session too.
        lectern.auth.forgetToken();
        setUser(null);
      })
      .finally(() => {
        checked = true;
        if (current) setLoading(false);
      });
    return () => {
      current = false;
    };
  }, [lectern]);

  /**
   * Runs a sign-in; if another account's unsynced changes are on the device, asks before they go and
   * settles with the answer: the user signed in, or SignInCancelledError (the new token revoked).
   */
  const guardSignIn = useCallback(
    async (signIn: () => Promise<AuthResponse>): Promise<User> => {
      try {
        const { user: signedIn } = await signIn();
        setUser(signedIn);
        return signedIn;
      } catch (error) {
        if (!(error instanceof UnsyncedWritesError)) throw error;
        return new Promise<User>((resolve, reject) => {
          setPrompt({
            count: error.count,
            cause: { kind: 'sign-in', previousEmail: error.previousUser.email },
            confirm: async () => {
              try {
                const { user: signedIn } = await lectern.auth.completeSignIn(error.pending);
                setUser(signedIn);
                resolve(signedIn);
              } catch (failure) {
                reject(failure as Error);
              } finally {
                setPrompt(null);
              }
            },
            cancel: () => {
              setPrompt(null);
              void lectern.auth.abandonSignIn(error.pending);
              reject(new SignInCancelledError());
            },
          });
        });
      }
    },
    [lectern],
  );

  const login = useCallback(
    (body: LoginBody) => guardSignIn(() => lectern.auth.login(body)),
    [guardSignIn, lectern],
  );

  const register = useCallback(
    (body: RegisterBody) => guardSignIn(() => lectern.auth.register(body)),
    [guardSignIn, lectern],
  );

  const finishGoogleSignIn = useCallback(
    (code: string) => guardSignIn(() => lectern.auth.finishGoogleSignIn(code)),
    [guardSignIn, lectern],
  );

  /** With unsynced changes and no `force`, shows the warning and answers true when it may go on now. */
  const mayWipe = useCallback(
    async (force: boolean, retry: () => Promise<unknown>) => {
      if (force) {
        setPrompt(null);
        return true;
      }
      // Online, what is waiting gets its chance to reach the server first: only what can't is at risk.
      const waiting = await lectern.sync.deliverUnsyncedWrites();
      if (waiting === 0) return true;
      setPrompt({ count: waiting, cause: { kind: 'logout' }, confirm: retry, cancel: () => setPrompt(null) });
      return false;
    },
    [lectern],
  );

  const logout = useCallback(
    async ({ force = false }: LogoutOptions = {}): Promise<boolean> => {
      if (!(await mayWipe(force, () => logout({ force: true })))) return false;
      await lectern.auth.logout();
      setUser(null);
      navigate('/login', { replace: true });
      return true;
    },
    [lectern, mayWipe, navigate],
  );

  const logoutEverywhere = useCallback(
    async ({ force = false, onFailure }: LogoutEverywhereOptions = {}): Promise<boolean> => {
      // Confirmed from the warning, a failure can't reach the caller's await: it goes to onFailure.
      const retry = () =>
        logoutEverywhere({ force: true, onFailure }).catch((error: unknown) => onFailure?.(error));
      if (!(await mayWipe(force, retry))) return false;
      await lectern.auth.logoutEverywhere();
      setUser(null);
      navigate('/login', { replace: true });
      return true;
    },
    [lectern, mayWipe, navigate],
  );

  const session = useMemo<Session>(
    () => ({
      user,
      isAuthenticated: user !== null,
      loading,
      login,
      register,
      logout,
      logoutEverywhere,
      finishGoogleSignIn,
      setUser,
    }),
    [user, loading, login, register, logout, logoutEverywhere, finishGoogleSignIn],
  );

  return (
    <SessionContext value={session}>
      {children}
      <UnsyncedLogoutDialog
        count={prompt?.count ?? null}
        cause={prompt?.cause}
        onCancel={() => prompt?.cancel()}
        onConfirm={() => prompt?.confirm() ?? Promise.resolve()}
      />
    </SessionContext>
  );
}
