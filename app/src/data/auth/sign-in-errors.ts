// Why a sign-in didn't complete, as the session and the screens need to tell it apart.
import {
  googleSignInErrorMessage,
  type AuthResponse,
  type GoogleSignInErrorCode,
  type User,
} from '@lectern/shared-schema';

/**
 * Another account's changes wait in this device's outbox: signing in as someone else would wipe them, so
 * the sign-in stops here (its token unused) until the person says to go on or not.
 */
export class UnsyncedWritesError extends Error {
  constructor(
    /** Changes the server hasn't got yet. */
    readonly count: number,
    /** Whose changes they are. */
    readonly previousUser: User,
    /** The sign-in waiting for an answer: completeSignIn or abandonSignIn. */
    readonly pending: AuthResponse,
  ) {
    super(`${count} unsynced change(s) of another account on this device`);
    this.name = 'UnsyncedWritesError';
  }
}

/** A Google sign-in that can't be finished, by the fixed code of /auth/callback?error=. */
export class GoogleSignInError extends Error {
  constructor(readonly code: GoogleSignInErrorCode) {
    super(googleSignInErrorMessage(code));
    this.name = 'GoogleSignInError';
  }
}
