/* eslint-disable @typescript-eslint/no-explicit-any -- test answers are checked field by field by the assertions */
// A small HTTP client for tests: real requests to a real server, answers parsed.
export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when the body isn't JSON, or null when empty. */
  body: T;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null = null,
  ) {}

  as(token: string | null): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  // `any` in answers keeps assertions on response shapes short; the assertions are what check them.
  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? this.token : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body: RequestInit['body'];
    if (options.body instanceof FormData) body = options.body;
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const response = await fetch(`${this.baseUrl}/api${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text.length === 0 ? null : text;
    if (text.length > 0 && (response.headers.get('content-type') ?? '').includes('json'))
      parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}

/** GET `path` (from `/api` on) as it comes: status, headers and the body's bytes (images). */
export async function getBytes(baseUrl: string, path: string, token?: string) {
  const response = await fetch(`${baseUrl}${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

let counter = 0;

/** Registers a fresh user and answers a client signed in as them. */
export async function signUp(
  api: ApiClient,
  overrides: Partial<{ email: string; password: string; username: string }> = {},
): Promise<{ client: ApiClient; token: string; user: any; email: string; password: string }> {
  counter += 1;
  const email = overrides.email ?? `reader${counter}-${Date.now()}@example.com`;
  const password = overrides.password ?? 'correct horse battery';
  const answer = await api.post('/auth/register', {
    email,
    password,
    username: overrides.username ?? `Reader ${counter}`,
  });
  if (answer.status !== 201)
    throw new Error(`sign-up failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return {
    client: api.as(answer.body.token),
    token: answer.body.token,
    user: answer.body.user,
    email,
    password,
  };
}

/**
 * Waits until the article's images are archived or given up (images_pending false): the archiving runs
 * after the save and writes the article once more, which a test counting feed changes must not race.
 */
export async function imagesSettled(client: ApiClient, articleId: string, withinMs = 20_000): Promise<any> {
  const until = Date.now() + withinMs;
  for (;;) {
    const answer = await client.get(`/articles/${articleId}`);
    if (answer.status !== 200 || !answer.body.article.images_pending) return answer.body.article;
    if (Date.now() > until) throw new Error(`the images of ${articleId} are still pending`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Waits until the import is done and answers it. Up to a minute: on PostgreSQL every row is its own
 * transaction of several round trips, and a 0.6 MB body copied into 40 rows is 40 search vectors built.
 */
export async function importFinished(client: ApiClient, id: string, tries = 1200): Promise<any> {
  for (let tried = 0; tried < tries; tried += 1) {
    const answer = await client.get(`/imports/${id}`);
    if (answer.status !== 200) throw new Error(`GET /imports/${id} answered ${answer.status}`);
    if (answer.body.import.status === 'done') return answer.body.import;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the import did not finish');
}
