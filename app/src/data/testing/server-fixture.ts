// A real sync-server and a local web site to save articles from, for tests and benchmarks that run in
// Node, under happy-dom too. Both live in the sync-server workspace (another TypeScript project, with
// Node's types), so they are loaded at run time by path and described here by the little this side uses
// of them.
import type { AuthResponse } from '@lectern/shared-schema';
import { createTestDevice, type TestDevice } from './test-lectern';

export interface RunningServer {
  /** http://127.0.0.1:PORT */
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

export interface FixtureSite {
  origin: string;
  url(path: string): string;
  close(): Promise<void>;
}

export interface ServerModule {
  /** `dataDir`: start on a folder already seeded (then left for the caller). */
  startTestServer(options?: { env?: Record<string, string>; dataDir?: string }): Promise<RunningServer>;
}

interface FixtureSiteModule {
  startFixtureSite(pages?: Record<string, string>): Promise<FixtureSite>;
  articlePage(options: {
    title: string;
    author?: string;
    description?: string;
    paragraphs: string[];
    image?: string;
  }): string;
  DEFAULT_PAGES: Record<string, string>;
}

export interface StandInProxy {
  url: string;
  htmlNotFound: Set<string>;
  /** Answers by "METHOD /path" or "METHOD *", given by the proxy instead of forwarding. */
  answers: Map<string, { status: number; headers?: Record<string, string>; body?: string }>;
  /** "METHOD /path" of every request that came in, in order. */
  requests: string[];
  cutConnections(): void;
  close(): Promise<void>;
}

interface ProxyModule {
  startStandInProxy(targetUrl: string): Promise<StandInProxy>;
}

// Plain string work on this file's URL: under happy-dom, `new URL(…, import.meta.url)` resolves against
// the page (http://localhost:3000/…) instead of the file.
const repoRoot = import.meta.url.replace(/\/app\/src\/.*$/, '');

/** A module of another workspace, by its path from the repository's root. */
export async function loadFromRepo<T>(path: string): Promise<T> {
  // Typed by the interfaces above: the module belongs to another TypeScript project.
  return (await import(/* @vite-ignore */ `${repoRoot}/${path}`)) as T;
}

export const siteModule = () => loadFromRepo<FixtureSiteModule>('sync-server/test/support/fixture-site.ts');

export interface ImageSite {
  origin: string;
  url(path: string): string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

interface ImageSiteModule {
  startImageSite(pages?: Record<string, string>): Promise<ImageSite>;
  pictureArticle(origin: string, title: string, count: number, prefix?: string): string;
}

/** A site of pages with pictures for the archived-image tests (sync-server/test/support/image-site.ts). */
export const imageSiteModule = () => loadFromRepo<ImageSiteModule>('sync-server/test/support/image-site.ts');

export interface World {
  server: RunningServer;
  site: FixtureSite;
  close(): Promise<void>;
}

/** One server for a whole test file, allowed to fetch the local site and to register many users. */
export async function startWorld(
  pages?: Record<string, string>,
  options: { moreAllowedOrigins?: string[] } = {},
): Promise<World> {
  const { startFixtureSite } = await siteModule();
  const site = await startFixtureSite(pages);
  const { startTestServer } = await loadFromRepo<ServerModule>(
    'sync-server/src/testing/start-test-server.ts',
  );
  const allowed = [site.origin, ...(options.moreAllowedOrigins ?? [])].join(',');
  const server = await startTestServer({
    env: { FETCH_ALLOWED_ORIGINS: allowed, REGISTRATIONS_PER_IP: '100000' },
  });
  return {
    server,
    site,
    async close() {
      await server.close();
      await site.close();
    },
  };
}

export interface ProxiedWorld extends World {
  /** In front of the server: devices talk to `proxy.url`, which can answer HTML 404s and server errors. */
  proxy: StandInProxy;
}

/** startWorld with a stand-in proxy in front of the server (sync-server/test/support/stand-in-proxy). */
export async function startProxiedWorld(pages?: Record<string, string>): Promise<ProxiedWorld> {
  const world = await startWorld(pages);
  const { startStandInProxy } = await loadFromRepo<ProxyModule>('sync-server/test/support/stand-in-proxy.ts');
  const proxy = await startStandInProxy(world.server.url);
  return {
    ...world,
    proxy,
    async close() {
      await proxy.close();
      await world.close();
    },
  };
}

let userCount = 0;

/** A fresh user's credentials; every test gets its own account on the shared server. */
export function newCredentials() {
  userCount += 1;
  const tag = `${Date.now().toString(36)}-${userCount}`;
  return { email: `reader-${tag}@example.com`, password: 'correct horse battery', username: `reader ${tag}` };
}

/** A fresh account on the server, made over HTTP without a device; answers its token and email. */
export async function registerUser(world: World): Promise<{ token: string; email: string }> {
  const credentials = newCredentials();
  const response = await fetch(`${world.server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (!response.ok) throw new Error(`register: ${response.status}`);
  const { token } = (await response.json()) as AuthResponse;
  return { token, email: credentials.email };
}

/** A device signed in to the server as the given user (a new one by default). */
export async function signedInDevice(
  world: World,
  credentials = newCredentials(),
  mode: 'register' | 'login' = 'register',
): Promise<TestDevice & { auth: AuthResponse; credentials: typeof credentials }> {
  const device = createTestDevice({ baseUrl: world.server.url });
  const auth =
    mode === 'register'
      ? await device.lectern.auth.register(credentials)
      : await device.lectern.auth.login(credentials);
  return { ...device, auth, credentials };
}

/** Asks the server directly, as the given device's user: what the device's answers must equal. */
export function serverReader(world: World, token: string) {
  return async function get<T>(path: string): Promise<T> {
    const response = await fetch(`${world.server.url}/api${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
}

/**
 * Waits until the server has archived the images of an article just saved: its archive job rewrites the
 * article (a change in the feed) a moment after the save answered.
 */
export async function untilImagesArchived<Article extends { images_pending?: boolean }>(
  world: World,
  token: string,
  articleId: string,
  timeoutMs = 20_000,
): Promise<Article> {
  const get = serverReader(world, token);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { article } = await get<{ article: Article }>(`/articles/${articleId}`);
    if (!article.images_pending) return article;
    if (Date.now() > deadline)
      throw new Error(`images of article ${articleId} not archived within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
