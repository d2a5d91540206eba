import { createContext, useContext } from 'react';
import type { LoginBody, RegisterBody, User } from '@lectern/shared-schema';

export interface LogoutOptions {
  /** Log out even though some changes haven't reached the server (they are lost). */
  force?: boolean;
}

/** The client-side session of spec sections 3 and 4. */
export interface Session {
  user: User | null;
  isAuthenticated: boolean;
  /** True until the stored token has been checked. */
  loading: boolean;
  login(body: LoginBody): Promise<User>;
  register(body: RegisterBody): Promise<User>;
  /**
   * Ends the session even if the server can't be told. With unsynced changes and no `force`, it asks
   * first (a dialog) and answers false; the dialog's confirm logs out.
   */
  logout(options?: LogoutOptions): Promise<boolean>;
  /** /auth/callback: keeps the token from Google sign-in and loads the user. */
  acceptToken(token: string): Promise<User>;
  /** After a profile change. */
  setUser(user: User): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() needs a <SessionProvider> above it');
  return session;
}
