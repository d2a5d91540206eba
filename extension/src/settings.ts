// What the extension keeps in chrome.storage.local: the reader's Lectern server and the token it gave.
// The token is the very kind the app keeps (a session JWT from POST /api/auth/login), so signing out
// everywhere in the app signs the extension out too.

declare const __LECTERN_DEFAULT_SERVER__: string;

/**
 * The server an extension built from this repository starts with: the origin `npm run build` was told
 * (LECTERN_SERVER_URL) or http://localhost:3000. A packaged extension can't know the reader's own server,
 * so the options page sets it.
 */
export const DEFAULT_SERVER = __LECTERN_DEFAULT_SERVER__;

export interface Settings {
  server: string;
  token: string | null;
  email: string | null;
}

export async function readSettings(): Promise<Settings> {
  const stored = await chrome.storage.local.get(['server', 'token', 'email']);
  return {
    server: typeof stored.server === 'string' ? stored.server : DEFAULT_SERVER,
    token: typeof stored.token === 'string' ? stored.token : null,
    email: typeof stored.email === 'string' ? stored.email : null,
  };
}

export async function saveSignIn(token: string, email: string): Promise<void> {
  await chrome.storage.local.set({ token, email });
}

export async function signOut(): Promise<void> {
  await chrome.storage.local.remove(['token', 'email']);
}

/** A new server: the old server's token means nothing there. */
export async function saveServer(server: string): Promise<void> {
  await chrome.storage.local.set({ server });
  await signOut();
}

/** The server's origin (scheme, host, port), or null when the text is not an http(s) address. */
export function serverOrigin(text: string): string | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The host permission the extension needs for a server: that host only (match patterns ignore ports). */
export function originPattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}/*`;
}
