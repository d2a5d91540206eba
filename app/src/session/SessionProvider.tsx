import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { TOKEN_STORAGE_KEY, type LoginBody, type RegisterBody, type User } from '@lectern/shared-schema';
import { useLectern } from './use-lectern';
import { SessionContext, type LogoutOptions, type Session } from './use-session';
import { UnsyncedLogoutDialog } from './UnsyncedLogoutDialog';

/**
 * The session rules of spec section 4: loading until the stored token is checked; no token, or a token
 * the server refuses, means signed out; logout clears everything even when the server can't be told.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const lectern = useLectern();
  const navigate = useNavigate();
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState(() => lectern.auth.hasToken());
  const [unsyncedCount, setUnsyncedCount] = useState<number | null>(null);

  useEffect(() => {
    if (!lectern.auth.hasToken()) return;
    let current = true;
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
        localStorage.removeItem(TOKEN_STORAGE_KEY);
        lectern.sync.refresh();
        setUser(null);
      })
      .finally(() => {
        if (current) setLoading(false);
      });
    return () => {
      current = false;
    };
  }, [lectern]);

  const login = useCallback(
    async (body: LoginBody) => {
      const { user: signedIn } = await lectern.auth.login(body);
      setUser(signedIn);
      return signedIn;
    },
    [lectern],
  );

  const register = useCallback(
    async (body: RegisterBody) => {
      const { user: signedUp } = await lectern.auth.register(body);
      setUser(signedUp);
      return signedUp;
    },
    [lectern],
  );

  const acceptToken = useCallback(
    async (token: string) => {
      const { user: signedIn } = await lectern.auth.acceptToken(token);
      setUser(signedIn);
      return signedIn;
    },
    [lectern],
  );

  const logout = useCallback(
    async ({ force = false }: LogoutOptions = {}) => {
      if (!force) {
        const waiting = await lectern.db.outbox.count();
        if (waiting > 0) {
          setUnsyncedCount(waiting);
          return false;
        }
      }
      setUnsyncedCount(null);
      await lectern.auth.logout();
      setUser(null);
      navigate('/login', { replace: true });
      return true;
    },
    [lectern, navigate],
  );

  const session = useMemo<Session>(
    () => ({
      user,
      isAuthenticated: user !== null,
      loading,
      login,
      register,
      logout,
      acceptToken,
      setUser,
    }),
    [user, loading, login, register, logout, acceptToken],
  );

  return (
    <SessionContext value={session}>
      {children}
      <UnsyncedLogoutDialog
        count={unsyncedCount}
        onCancel={() => setUnsyncedCount(null)}
        onConfirm={() => logout({ force: true })}
      />
    </SessionContext>
  );
}
