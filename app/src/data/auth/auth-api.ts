// The auth calls of spec section 7 and the session rules of section 4, for an offline-first device: the
// token lives in localStorage under 'token'; a 401 ends the session but keeps the outbox for the same
// user's next sign-in; another user signing in starts from an empty database, but never by wiping writes
// the server hasn't got without the person saying so (UnsyncedWritesError); logout wipes it.
// Google sign-in: the tab that starts it keeps a one-time nonce in sessionStorage, and /auth/callback
// trades the server's one-time code and that nonce for the token; a callback this tab didn't start fails.
import {
  FIELD_ERRORS,
  isEmailAddress,
  TOKEN_STORAGE_KEY,
  type AuthResponse,
  type GoogleExchangeBody,
  type LoginBody,
  type ProfileBody,
  type RegisterBody,
  type User,
  type UserResponse,
} from '@lectern/shared-schema';
import { ApiError, NetworkError, type HttpClient, type TokenStorage } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import { forgetDeviceImages } from '../device/image-caches';
import type { SyncEngine } from '../sync/sync-engine';
import { GOOGLE_NONCE_KEY } from './google-nonce-key';
import { GoogleSignInError, UnsyncedWritesError } from './sign-in-errors';

export interface AuthContext {
  db: LecternDb;
  http: HttpClient;
  sync: SyncEngine;
  tokenStorage: TokenStorage;
  /** Per tab (sessionStorage): the nonce of the Google sign-in this tab started. */
  signInStorage: TokenStorage;
  baseUrl: string;
}

/** Spec section 5's email rule, refused as the server refuses it (400, same text) without a round trip. */
function requireEmailAddress(email: string): void {
  if (!isEmailAddress(email)) throw new ApiError(400, FIELD_ERRORS.email);
}

function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export interface SignInOptions {
  /** The person was warned and chose to lose another account's unsynced changes on this device. */
  discardUnsynced?: boolean;
}

export function createAuthApi({ db, http, sync, tokenStorage, signInStorage, baseUrl }: AuthContext) {
  /**
   * Keeps the user's data only if the database holds this same user's data (or none). Another user's
   * data goes, but never a non-empty outbox unless `discardUnsynced` says the person agreed.
   */
  async function adoptUser(user: User, options: SignInOptions = {}, pending?: AuthResponse): Promise<void> {
    const previous = await db.getMeta('user');
    if (previous && previous.id !== user.id) {
      const waiting = await db.outbox.count();
      if (waiting > 0 && !options.discardUnsynced)
        throw new UnsyncedWritesError(waiting, previous, pending ?? { token: '', user });
      await sync.stop();
      await db.wipe();
      await forgetDeviceImages();
    }
    // Every app start checks the session: the same user as kept is no write (a write transaction there
    // would wait for, and hold up, the dashboard's first reads).
    if (previous && JSON.stringify(previous) === JSON.stringify(user)) return;
    await db.setMeta('user', user);
  }

  async function signedIn(response: AuthResponse, options: SignInOptions = {}): Promise<AuthResponse> {
    // Checked before the token is stored: a refused adoption leaves the device as it was.
    await adoptUser(response.user, options, response);
    tokenStorage.setItem(TOKEN_STORAGE_KEY, response.token);
    sync.refresh();
    // A new device's first page is on its way before the screens render.
    await sync.askFirstPage();
    sync.start();
    sync.requestSync(0);
    return response;
  }

  /**
   * GET /auth/me. Offline the device answers with the user it last saw, so the app opens without a
   * network; a 401 removes the token (the HTTP client does) and rejects.
   */
  async function me(): Promise<UserResponse> {
    try {
      const response = await http.get<UserResponse>('/auth/me');
      await adoptUser(response.user);
      return response;
    } catch (error) {
      const cached = await db.getMeta('user');
      if (error instanceof NetworkError && cached && http.hasToken()) return { user: cached };
      throw error;
    }
  }

  /**
   * A call that ends this session on the server (account deletion, signing out everywhere), made with sync
   * stopped: the live-update stream hears the session end too, and its pull would meet the 401 and send
   * this tab to /login before the screen has said why. A call that fails leaves the device syncing again.
   */
  async function withSyncStopped(call: () => Promise<unknown>): Promise<void> {
    await sync.stop();
    try {
      await call();
    } catch (error) {
      sync.start();
      throw error;
    }
  }

  /** A file the server sends: never kept in the browser's HTTP cache (it is private and logout can't empty it). */
  async function downloadBlob(path: string): Promise<Blob> {
    const response = await http.send('GET', path, { cache: 'no-store' });
    return response.blob();
  }

  return {
    async register(body: RegisterBody) {
      requireEmailAddress(body.email);
      return signedIn(
        await http.request<AuthResponse>('POST', '/auth/register', { body, credentialsCheck: true }),
      );
    },

    async login(body: LoginBody) {
      requireEmailAddress(body.email);
      return signedIn(
        await http.request<AuthResponse>('POST', '/auth/login', { body, credentialsCheck: true }),
      );
    },

    /** After an UnsyncedWritesError, when the person chose to sign in anyway: the old changes go. */
    completeSignIn: (pending: AuthResponse) => signedIn(pending, { discardUnsynced: true }),

    /** After an UnsyncedWritesError, when the person chose to keep the changes: the new token is revoked. */
    async abandonSignIn(pending: AuthResponse): Promise<void> {
      try {
        await http.request('POST', '/auth/logout', { token: pending.token });
      } catch {
        // Offline or refused: the unused token simply expires.
      }
    },

    /**
     * "Continue with Google": a fresh one-time nonce for this tab, and the address to navigate to. Only
     * this tab can finish the sign-in (finishGoogleSignIn).
     */
    startGoogleSignIn(): string {
      const nonce = newNonce();
      signInStorage.setItem(GOOGLE_NONCE_KEY, nonce);
      return `${baseUrl}/api/auth/google?nonce=${nonce}`;
    },

    /**
     * /auth/callback?code=: trades the code and this tab's nonce for the token (POST, so no token is ever in
     * a URL). The nonce is used up either way; without one, this tab didn't start the sign-in.
     */
    async finishGoogleSignIn(code: string): Promise<AuthResponse> {
      const nonce = signInStorage.getItem(GOOGLE_NONCE_KEY);
      signInStorage.removeItem(GOOGLE_NONCE_KEY);
      if (!nonce) throw new GoogleSignInError('google_not_started');
      const body: GoogleExchangeBody = { code, nonce };
      let response: AuthResponse;
      try {
        response = await http.request<AuthResponse>('POST', '/auth/google/exchange', {
          body,
          credentialsCheck: true,
        });
      } catch (error) {
        if (error instanceof ApiError) throw new GoogleSignInError('google_expired');
        throw error;
      }
      return signedIn(response);
    },

    me,

    async updateProfile(body: ProfileBody): Promise<UserResponse> {
      const response = await http.request<UserResponse>('PUT', '/auth/profile', { body });
      await db.setMeta('user', response.user);
      return response;
    },

    /** GET /auth/export: the user's data, for the screen to download as a file. */
    exportData: () => http.get<unknown>('/auth/export'),

    /** GET /auth/export/highlights: a zip of Markdown, one file per article with highlights. */
    exportHighlights: () => downloadBlob('/auth/export/highlights'),

    /** GET /auth/export/bookmarks: the library as a Netscape bookmark HTML file. */
    exportBookmarks: () => downloadBlob('/auth/export/bookmarks'),

    /** DELETE /auth/account, then nothing of the user stays on the device. */
    async deleteAccount(): Promise<void> {
      await withSyncStopped(() => http.request('DELETE', '/auth/account'));
      // The server revoked the token with the account: keeping it would only earn a 401 later.
      tokenStorage.removeItem(TOKEN_STORAGE_KEY);
      await db.wipe();
      await forgetDeviceImages();
      sync.refresh();
    },

    /** Writes the server hasn't got yet: logout warns before losing them. */
    hasUnsyncedWrites: async () => (await db.outbox.count()) > 0,

    /** POST /auth/logout, then token, user and the local database go, even if the call fails. */
    async logout(): Promise<void> {
      await sync.stop();
      try {
        if (http.hasToken()) await http.request('POST', '/auth/logout');
      } catch {
        // Logging out must work offline and with a revoked token alike.
      }
      tokenStorage.removeItem(TOKEN_STORAGE_KEY);
      await db.wipe();
      // The service worker's image cache and any screenshot still shown would outlive the database.
      await forgetDeviceImages();
      sync.refresh();
    },

    /**
     * POST /auth/logout-all: every session of the user ends, on every device; then this device is
     * cleared like a logout. Unlike logout it needs the server: offline it fails and nothing changes.
     */
    async logoutEverywhere(): Promise<void> {
      await withSyncStopped(() => http.request('POST', '/auth/logout-all'));
      tokenStorage.removeItem(TOKEN_STORAGE_KEY);
      await db.wipe();
      // As at logout: the image cache and screenshots still shown would outlive the database.
      await forgetDeviceImages();
      sync.refresh();
    },

    hasToken: () => http.hasToken(),

    /** The user this device last saw signed in with the stored token, if any: the app opens as them. */
    async keptUser(): Promise<User | undefined> {
      return http.hasToken() ? await db.getMeta('user') : undefined;
    },

    /**
     * The stored token couldn't be checked when the app opened (`me()` failed: refused, or offline with no
     * user kept on the device): it goes and the session ends, but the device's data and outbox stay for
     * this user's next sign-in, as after any 401.
     */
    forgetToken(): void {
      tokenStorage.removeItem(TOKEN_STORAGE_KEY);
      sync.refresh();
    },

    /** The link of "Continue with Google"; a click goes through startGoogleSignIn for the nonce. */
    googleSignInUrl: () => `${baseUrl}/api/auth/google`,
  };
}

export type AuthApi = ReturnType<typeof createAuthApi>;
