// A real sync-server and a local web site to save articles from, for tests and benchmarks that run in
// Node. Both live in the sync-server workspace (another TypeScript project, with Node's types), so they
// are loaded at run time by path and described here by the little this side uses of them.
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

interface ServerModule {
  startTestServer(options?: { env?: Record<string, string> }): Promise<RunningServer>;
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
  close(): Promise<void>;
}

interface ProxyModule {
  startStandInProxy(targetUrl: string): Promise<StandInProxy>;
}

const SERVER_MODULE = new URL('../../../../sync-server/src/testing/start-test-server.ts', import.meta.url)
  .href;
const SITE_MODULE = new URL('../../../../sync-server/test/support/fixture-site.ts', import.meta.url).href;

async function load<T>(href: string): Promise<T> {
  // Typed by the interfaces above: the module belongs to another TypeScript project.
  return (await import(/* @vite-ignore */ href)) as T;
}

export const siteModule = () => load<FixtureSiteModule>(SITE_MODULE);

/** A proxy in front of the server that can answer its own HTML 404s (sync-server/test/support). */
export async function startStandInProxy(targetUrl: string): Promise<StandInProxy> {
  const href = new URL('../../../../sync-server/test/support/stand-in-proxy.ts', import.meta.url).href;
  return (await load<ProxyModule>(href)).startStandInProxy(targetUrl);
}

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
export const imageSiteModule = () =>
  load<ImageSiteModule>(new URL('../../../../sync-server/test/support/image-site.ts', import.meta.url).href);

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
  const { startTestServer } = await load<ServerModule>(SERVER_MODULE);
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

let userCount = 0;

/** A fresh user's credentials; every test gets its own account on the shared server. */
export function newCredentials() {
  userCount += 1;
  const tag = `${Date.now().toString(36)}-${userCount}`;
  return { email: `reader-${tag}@example.com`, password: 'correct horse battery', username: `reader ${tag}` };
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
