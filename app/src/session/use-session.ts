import { createContext, useContext } from 'react';
import type { LoginBody, RegisterBody, User } from '@lectern/shared-schema';

export interface LogoutOptions {
  /** Log out even though some changes haven't reached the server (they are lost). */
  force?: boolean;
}

export interface LogoutEverywhereOptions extends LogoutOptions {
  /** The server couldn't be told after the unsynced-changes warning was confirmed. */
  onFailure?: (error: unknown) => void;
}

/** The client-side session of spec sections 3 and 4. */
export interface Session {
  user: User | null;
  isAuthenticated: boolean;
  /** True until the stored token has been checked. */
  loading: boolean;
  /**
   * Sign-in and sign-up. When another account's unsynced changes are on the device, a dialog asks first;
   * choosing to keep them rejects with SignInCancelledError.
   */
  login(body: LoginBody): Promise<User>;
  register(body: RegisterBody): Promise<User>;
  /**
   * Ends the session even if the server can't be told. With unsynced changes and no `force`, it asks
   * first (a dialog) and answers false; the dialog's confirm logs out.
   */
  logout(options?: LogoutOptions): Promise<boolean>;
  /**
   * Ends every session of the user on every device, this one included (the server must be reachable: it
   * rejects otherwise, and nothing changes). Asks first about unsynced changes, like logout.
   */
  logoutEverywhere(options?: LogoutEverywhereOptions): Promise<boolean>;
  /** /auth/callback?code=: finishes the Google sign-in this tab started, and loads the user. */
  finishGoogleSignIn(code: string): Promise<User>;
  /** After a profile change. */
  setUser(user: User): void;
}

/** The person chose to keep another account's unsynced changes rather than sign in. */
export class SignInCancelledError extends Error {
  constructor() {
    super('Sign-in cancelled. The unsynced changes are still on this device.');
    this.name = 'SignInCancelledError';
  }
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() needs a <SessionProvider> above it');
  return session;
}
