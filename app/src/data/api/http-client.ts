// The only place that talks HTTP to the server: JSON or multipart bodies, the bearer token, `{error}`
// bodies turned into ApiError, and a failed connection turned into NetworkError.
import { TOKEN_STORAGE_KEY } from '@lectern/shared-schema';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Where the session token lives: localStorage under 'token' in the browser (spec section 4). */
export type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * An error status; `serverMessage` is the `{error}` text when the API itself answered (JSON with an
 * `error` string), null when something else did (a proxy's HTML page, an empty body).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(serverMessage ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

/** The request never got an answer: offline, server down, connection dropped. */
export class NetworkError extends Error {
  constructor(cause?: unknown) {
    super('Network error', { cause });
    this.name = 'NetworkError';
  }
}

export interface RequestOptions {
  body?: unknown;
  /** The fetch cache mode; 'no-store' keeps private bytes out of the browser's HTTP cache. */
  cache?: RequestCache;
  form?: FormData;
  query?: Record<string, string | number | boolean | undefined>;
  idempotencyKey?: string;
  /** Login and sign-up answer 401 for wrong credentials, which is not a lost session. */
  credentialsCheck?: boolean;
  /** A token to send instead of the stored one (a sign-in given up before it was stored). */
  token?: string;
}

export interface HttpClientOptions {
  /** The server's origin, e.g. `http://127.0.0.1:3000`; empty for the page's own origin. */
  baseUrl: string;
  fetch: FetchLike;
  tokenStorage: TokenStorage;
  /** Called after any 401 once the token is gone (spec section 4: log out). */
  onUnauthorized: () => void;
  /** Called with every answer or failed connection, so the sync state knows whether the server is reachable. */
  onReachability?: (reachable: boolean) => void;
}

function retryAfterMs(response: Response): number | null {
  const header = response.headers.get('retry-after');
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/**
 * The `{error}` text of an answer in the API's own shape (JSON with an `error` string), else null: a
 * proxy's or a captive portal's error page is not the server speaking.
 */
async function errorMessageOf(response: Response): Promise<string | null> {
  const type = response.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type.trim())) return null;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string')
      return body.error;
  } catch {
    // Not JSON (a proxy's error page, an empty body): there is no server text to show.
  }
  return null;
}

export type HttpClient = ReturnType<typeof createHttpClient>;

export function createHttpClient(options: HttpClientOptions) {
  const { baseUrl, tokenStorage } = options;

  function urlOf(path: string, query?: RequestOptions['query']): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) params.set(name, String(value));
    }
    const search = params.size > 0 ? `?${params.toString()}` : '';
    return `${baseUrl}/api${path}${search}`;
  }

  async function send(method: string, path: string, request: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = request.token ?? tokenStorage.getItem(TOKEN_STORAGE_KEY);
    if (token) headers.authorization = `Bearer ${token}`;
    if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
    let body: BodyInit | undefined;
    if (request.form) body = request.form;
    else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    let response: Response;
    try {
      const init: RequestInit = { method, headers, body };
      if (request.cache) init.cache = request.cache;
      response = await options.fetch(urlOf(path, request.query), init);
    } catch (error) {
      options.onReachability?.(false);
      throw new NetworkError(error);
    }
    options.onReachability?.(true);
    if (response.ok) return response;
    const error = new ApiError(response.status, await errorMessageOf(response), retryAfterMs(response));
    if (response.status === 401 && !request.credentialsCheck && !request.token && token) {
      tokenStorage.removeItem(TOKEN_STORAGE_KEY);
      options.onUnauthorized();
    }
    throw error;
  }

  /** Sends the request and answers its JSON body (undefined for an empty 204). */
  async function request<T>(method: string, path: string, request?: RequestOptions): Promise<T> {
    const response = await send(method, path, request);
    const text = await response.text();
    // The caller names the response type of the route it calls (shared-schema's response types).
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    request,
    send,
    url: urlOf,
    get: <T>(path: string, query?: RequestOptions['query']) => request<T>('GET', path, { query }),
    hasToken: () => tokenStorage.getItem(TOKEN_STORAGE_KEY) !== null,
  };
}
