// One built app served by the real server, one fixture site to save articles from, and one Chromium per
// test file: each test opens its own browser context (its own storage, IndexedDB and service worker).
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../sync-server/src/testing/start-test-server';
import { ApiClient } from '../../sync-server/test/support/api-client';
import {
  DEFAULT_PAGES,
  startFixtureSite,
  type FixtureSite,
} from '../../sync-server/test/support/fixture-site';
import { startGoogleStandIn, type GoogleStandIn } from './google-stand-in';
import { launchChromium } from '../../sync-server/src/testing/launch-chromium';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const APP_DIR = join(repoRoot, 'app', 'dist');

export const PHONE = { width: 390, height: 844 };
export const SMALLEST_PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1440, height: 900 };

export interface BrowserWorld {
  server: TestServer;
  site: FixtureSite;
  api: ApiClient;
  browser: Browser;
  google: GoogleStandIn | null;
  /** A fresh visitor: no token, an empty database. */
  newContext(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

export async function startBrowserWorld(
  options: {
    pages?: Record<string, string>;
    google?: boolean;
    /** More local sites the server may fetch from (a test's own slow or gated pages). */
    moreAllowedOrigins?: string[];
    /** Start the server on a data folder seeded beforehand (left for the caller to remove). */
    dataDir?: string;
  } = {},
): Promise<BrowserWorld> {
  if (!existsSync(join(APP_DIR, 'index.html')))
    throw new Error('app/dist is missing: build the app first (npx vite build)');
  // The fixture site's pictures are drawn from the app's own icon: served to the server, which archives
  // them (issue 14), and to the browser for a page that still names the site's address.
  const picture = readFileSync(join(repoRoot, 'app', 'public', 'icons', 'icon-512.png'));
  const site = await startFixtureSite({ ...DEFAULT_PAGES, ...options.pages }, undefined, {
    '/images/garden.jpg': { type: 'image/png', body: picture },
  });
  const google = options.google ? await startGoogleStandIn() : null;
  const server = await startTestServer({
    appDir: APP_DIR,
    dataDir: options.dataDir,
    env: {
      FETCH_ALLOWED_ORIGINS: [site.origin, ...(options.moreAllowedOrigins ?? [])].join(','),
      REGISTRATIONS_PER_IP: '100000',
      PUBLIC_URL: 'http://lectern.test',
      ...google?.env(),
      // E2E_SERVER_LOG=/path writes the server's request log there (for a test that hangs).
      ...(process.env.E2E_SERVER_LOG ? { LOG_LEVEL: 'info' } : {}),
    },
    logStream: process.env.E2E_SERVER_LOG
      ? createWriteStream(process.env.E2E_SERVER_LOG, { flags: 'a' })
      : undefined,
  });
  google?.setServerUrl(server.url);
  const browser = await launchChromium();
  const contexts = new Set<BrowserContext>();
  async function newContext(viewport = DESKTOP) {
    const context = await browser.newContext({ baseURL: server.url, viewport, reducedMotion: 'reduce' });
    await context.route(`${site.origin}/images/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'image/png', body: picture }),
    );
    contexts.add(context);
    context.on('close', () => contexts.delete(context));
    return context;
  }
  return {
    server,
    site,
    api: new ApiClient(server.url),
    browser,
    google,
    newContext,
    async newPage(viewport = DESKTOP) {
      return (await newContext(viewport)).newPage();
    },
    async close() {
      for (const context of contexts) await context.close();
      await browser.close();
      await server.close();
      await google?.close();
      await site.close();
    },
  };
}
