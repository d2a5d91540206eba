// The auth calls of spec section 7 and the session rules of section 4, for an offline-first device: the
// token lives in localStorage under 'token'; a 401 ends the session but keeps the outbox for the same
// user's next sign-in; another user signing in starts from an empty database; logout wipes it.
import {
  TOKEN_STORAGE_KEY,
  type AuthResponse,
  type LoginBody,
  type ProfileBody,
  type RegisterBody,
  type User,
  type UserResponse,
} from '@lectern/shared-schema';
import { NetworkError, type HttpClient, type TokenStorage } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import { forgetDeviceImages } from '../device/image-caches';
import type { SyncEngine } from '../sync/sync-engine';

export interface AuthContext {
  db: LecternDb;
  http: HttpClient;
  sync: SyncEngine;
  tokenStorage: TokenStorage;
  baseUrl: string;
}

export function createAuthApi({ db, http, sync, tokenStorage, baseUrl }: AuthContext) {
  /** Keeps the user's data only if the database holds this same user's data (or none). */
  async function adoptUser(user: User): Promise<void> {
    const previous = await db.getMeta('user');
    if (previous && previous.id !== user.id) {
      await sync.stop();
      await db.wipe();
      await forgetDeviceImages();
    }
    await db.setMeta('user', user);
  }

  async function signedIn(response: AuthResponse): Promise<AuthResponse> {
    tokenStorage.setItem(TOKEN_STORAGE_KEY, response.token);
    await adoptUser(response.user);
    sync.refresh();
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

  return {
    register: async (body: RegisterBody) =>
      signedIn(await http.request<AuthResponse>('POST', '/auth/register', { body, credentialsCheck: true })),

    login: async (body: LoginBody) =>
      signedIn(await http.request<AuthResponse>('POST', '/auth/login', { body, credentialsCheck: true })),

    /** /auth/callback: stores the token from Google sign-in, then loads the user. */
    async acceptToken(token: string): Promise<UserResponse> {
      tokenStorage.setItem(TOKEN_STORAGE_KEY, token);
      sync.refresh();
      const response = await me();
      sync.start();
      sync.requestSync(0);
      return response;
    },

    me,

    async updateProfile(body: ProfileBody): Promise<UserResponse> {
      const response = await http.request<UserResponse>('PUT', '/auth/profile', { body });
      await db.setMeta('user', response.user);
      return response;
    },

    /** GET /auth/export: the user's data, for the screen to download as a file. */
    exportData: () => http.get<unknown>('/auth/export'),

    /** DELETE /auth/account, then nothing of the user stays on the device. */
    async deleteAccount(): Promise<void> {
      await http.request('DELETE', '/auth/account');
      await sync.stop();
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

    hasToken: () => http.hasToken(),
    /** Google sign-in is a full-page navigation to this address. */
    googleSignInUrl: () => `${baseUrl}/api/auth/google`,
  };
}

export type AuthApi = ReturnType<typeof createAuthApi>;
