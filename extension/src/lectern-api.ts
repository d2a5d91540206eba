// The two calls the extension makes to the reader's Lectern server: sign in, and save a page.
import { readSettings, saveSignIn, signOut } from './settings';

/** What a save came to, in the words the popup shows. */
export type SaveOutcome =
  | { kind: 'saved'; title: string; url: string }
  | { kind: 'alreadySaved'; title: string; url: string }
  | { kind: 'signedOut'; reason: string }
  | { kind: 'failed'; reason: string };

export const OUTCOME_TEXTS = {
  saved: 'Saved to Lectern',
  alreadySaved: 'Already in your library',
  signedOut: 'Sign in to save pages to Lectern',
  failed: 'Couldn’t save this page',
} as const;

/** The server's own `{error}` text, or a sentence about the status. */
async function errorOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // Not the API's JSON (a proxy's page): say what happened instead.
  }
  return `The server answered with HTTP status ${response.status}`;
}

export async function signIn(
  email: string,
  password: string,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const { server } = await readSettings();
  let response: Response;
  try {
    response = await fetch(`${server}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
  } catch {
    return { ok: false, reason: `Lectern at ${server} could not be reached` };
  }
  if (!response.ok) return { ok: false, reason: await errorOf(response) };
  const { token } = (await response.json()) as { token: string };
  await saveSignIn(token, email);
  return { ok: true };
}

/**
 * POST /api/articles with the page's html (when the tab could be read) or the address alone (a link, a
 * page the browser won't let extensions read). 201 is a new article, 200 one already in the library.
 */
export async function saveToLectern(page: {
  url: string;
  html?: string;
  tags?: string[];
}): Promise<SaveOutcome> {
  const { server, token } = await readSettings();
  if (!token) return { kind: 'signedOut', reason: OUTCOME_TEXTS.signedOut };
  let response: Response;
  try {
    response = await fetch(`${server}/api/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(page),
    });
  } catch {
    return { kind: 'failed', reason: `Lectern at ${server} could not be reached` };
  }
  if (response.status === 401) {
    await signOut();
    return { kind: 'signedOut', reason: await errorOf(response) };
  }
  if (response.status !== 200 && response.status !== 201)
    return { kind: 'failed', reason: await errorOf(response) };
  const { article } = (await response.json()) as { article: { title: string; url: string } };
  return { kind: response.status === 201 ? 'saved' : 'alreadySaved', title: article.title, url: article.url };
}
