// The browser extension loaded unpacked (--load-extension) into Chromium, against the real server: it
// signs in from its options page, saves the active tab with its rendered HTML from its popup, through the
// keyboard shortcut's command, and a link through the context menu's handler.
//
// A headless Chromium draws no toolbar and no context menu and fires no extension shortcut, so: the popup
// is opened as a tab at its own address (popup.html?tabId=N names the tab to save, since the popup tab
// is then the active one), and the shortcut and the menu are driven by calling, in the service worker,
// the very functions their chrome.commands.onCommand and chrome.contextMenus.onClicked listeners call.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExtension } from '../extension/build.mjs';
import { CHROMIUM_ARGS } from '../sync-server/src/testing/launch-chromium';
import { startTestServer, type TestServer } from '../sync-server/src/testing/start-test-server';
import { ApiClient, signUp } from '../sync-server/test/support/api-client';
import { articlePage, startFixtureSite, type FixtureSite } from '../sync-server/test/support/fixture-site';
import { eventually } from './support/eventually';
import { saveScreenshot } from './support/screenshots';

/** The few extension APIs the tests call inside the service worker (there, `chrome` is a global). */
interface ExtensionGlobals {
  chrome: {
    runtime: { getManifest(): unknown };
    tabs: { query(query: { url: string }): Promise<{ id?: number }[]> };
    storage: { local: { get(keys: string[]): Promise<Record<string, unknown>> } };
    action: { getBadgeText(details: { tabId: number }): Promise<string> };
  };
  /** The handlers background.ts's listeners call (see its last lines). */
  lectern: {
    onCommand(command: string): Promise<unknown>;
    onContextMenuClick(info: { menuItemId: string; linkUrl: string }): Promise<unknown>;
  };
}

const prose = (topic: string) =>
  `This paragraph about ${topic} is long enough for a reader view to treat it as real prose, with ` +
  `several clauses, commas and full sentences, so that the page scores as an article.`;

/** A page whose article a script writes: a fetch of its address sees only "Loading…". */
function scriptPage(title: string, topics: string[], extra = '') {
  const body = articlePage({ title, paragraphs: topics.map(prose) }).replace(
    /^[\s\S]*<body>|<\/body>[\s\S]*$/g,
    '',
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><div id="app">Loading…</div>${extra}<script>
document.getElementById('app').innerHTML = ${JSON.stringify(body)};
</script></body></html>`;
}

const PAGES = {
  '/lighthouses': scriptPage('Lighthouses of Brittany', ['granite towers', 'keepers', 'Fresnel lenses'], ''),
  '/canals': scriptPage('Canals of Burgundy', ['locks', 'barges', 'towpaths']),
  '/links': scriptPage(
    'Further reading',
    ['reading lists', 'bibliographies', 'libraries'],
    '<a id="far" href="/glaciers">Glaciers</a>',
  ),
  '/glaciers': articlePage({
    title: 'Glaciers in Retreat',
    paragraphs: [prose('moraines'), prose('ice cores'), prose('meltwater')],
  }),
};

let site: FixtureSite;
let server: TestServer;
let api: ApiClient;
let context: BrowserContext;
let worker: Worker;
let extensionId: string;
let profileDir: string;
let extensionDir: string;
let account: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  site = await startFixtureSite(PAGES);
  server = await startTestServer({ env: { FETCH_ALLOWED_ORIGINS: site.origin } });
  api = new ApiClient(server.url);
  account = await signUp(api);
  profileDir = await mkdtemp(join(tmpdir(), 'lectern-extension-profile-'));
  extensionDir = await mkdtemp(join(tmpdir(), 'lectern-extension-'));
  // This build's default server is the test server (what LECTERN_SERVER_URL does for `npm run build`).
  await buildExtension({ server: server.url, outDir: extensionDir, zipFile: null });
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
    ],
  });
  worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  extensionId = new URL(worker.url()).host;
});

afterAll(async () => {
  await context?.close();
  await server?.close();
  await site?.close();
  await rm(profileDir, { recursive: true, force: true });
  await rm(extensionDir, { recursive: true, force: true });
});

const extensionPage = (path: string) => `chrome-extension://${extensionId}/${path}`;

/** The tab id Chromium gave a page, asked of the extension itself. */
async function tabIdOf(page: Page): Promise<number> {
  const url = page.url();
  // Type assertions are erased before Playwright sends the function: inside, only globalThis remains.
  return worker.evaluate(async (address) => {
    const [tab] = await (globalThis as unknown as ExtensionGlobals).chrome.tabs.query({ url: address });
    return tab?.id ?? -1;
  }, url);
}

async function library() {
  const { body } = await api.as(account.token).get('/articles');
  return body.articles as { id: string; url: string; title: string; tags: string[] }[];
}

async function contentOf(id: string): Promise<string> {
  const { body } = await api.as(account.token).get(`/articles/${id}`);
  return body.article.content ?? '';
}

describe('the browser extension', () => {
  it('declares the shortcut, the permissions and Firefox settings of a Manifest V3 extension', async () => {
    const manifest = await worker.evaluate(() =>
      (globalThis as unknown as ExtensionGlobals).chrome.runtime.getManifest(),
    );
    expect(manifest).toMatchObject({
      manifest_version: 3,
      permissions: ['activeTab', 'scripting', 'contextMenus', 'storage'],
      host_permissions: ['http://127.0.0.1/*'],
      optional_host_permissions: ['https://*/*', 'http://*/*'],
      commands: { 'save-page': { suggested_key: { default: 'Alt+Shift+S' } } },
      browser_specific_settings: { gecko: { id: 'save@lectern.app' } },
    });
  });

  it('signs in from its options page with the Lectern account', async () => {
    const options = await context.newPage();
    await options.goto(extensionPage('options.html'));
    expect(await options.getByLabel('Server address').inputValue()).toBe(server.url);
    await options.getByLabel('Email').fill(account.email);
    await options.getByLabel('Password').fill('wrong password!');
    await options.getByRole('button', { name: 'Sign In' }).click();
    await options.getByText('Invalid email or password').waitFor();
    await options.getByLabel('Password').fill(account.password);
    await options.getByRole('button', { name: 'Sign In' }).click();
    await options.getByText(`Signed in as ${account.email}.`).waitFor();
    await options.setViewportSize({ width: 640, height: 480 });
    await saveScreenshot(options, 'extension-options');
    const token = await worker.evaluate(
      async () =>
        (await (globalThis as unknown as ExtensionGlobals).chrome.storage.local.get(['token'])).token,
    );
    // The app's own kind of token: it reads the library like the app's does.
    expect((await api.as(String(token)).get('/articles')).status).toBe(200);
    await options.close();
  });

  it('saves the active tab with its rendered HTML from the popup, then says it is already saved, and tags it', async () => {
    const page = await context.newPage();
    await page.goto(site.url('/lighthouses'));
    await page.getByRole('heading', { name: 'Lighthouses of Brittany' }).waitFor();
    const tabId = await tabIdOf(page);

    const popup = await context.newPage();
    await popup.setViewportSize({ width: 360, height: 320 });
    await popup.goto(extensionPage(`popup.html?tabId=${tabId}`));
    await popup.getByText('Saved to Lectern').waitFor();
    await popup.getByText('Lighthouses of Brittany').waitFor();
    const [saved] = await library();
    expect(saved).toMatchObject({ url: site.url('/lighthouses'), title: 'Lighthouses of Brittany' });
    // What the reader saw, not what a fetch of the address gets ("Loading…").
    expect(await contentOf(saved!.id)).toContain('Fresnel lenses');

    await popup.getByLabel('Tags (optional)').fill('coast, travel');
    await popup.getByRole('button', { name: 'Add tags' }).click();
    await popup.getByText('Tagged coast, travel').waitFor();
    expect((await library())[0]!.tags.sort()).toEqual(['coast', 'travel']);
    await saveScreenshot(popup, 'extension-popup-saved');

    await popup.reload();
    await popup.getByText('Already in your library').waitFor();
    expect(await library()).toHaveLength(1);
    await popup.close();
    await page.close();
  });

  it('saves the active tab by the Alt+Shift+S command', async () => {
    const page = await context.newPage();
    await page.goto(site.url('/canals'));
    await page.getByRole('heading', { name: 'Canals of Burgundy' }).waitFor();
    await page.bringToFront();
    const outcome = await worker.evaluate(() =>
      (globalThis as unknown as ExtensionGlobals).lectern.onCommand('save-page'),
    );
    expect(outcome).toMatchObject({ kind: 'saved', title: 'Canals of Burgundy' });
    const canal = (await library()).find((article) => article.url === site.url('/canals'));
    expect(await contentOf(canal!.id)).toContain('towpaths');
    const badge = await worker.evaluate(
      async (tabId) => (globalThis as unknown as ExtensionGlobals).chrome.action.getBadgeText({ tabId }),
      await tabIdOf(page),
    );
    expect(badge).toBe('✓');
    await page.close();
  });

  it('saves a link through the context menu without opening it', async () => {
    const page = await context.newPage();
    await page.goto(site.url('/links'));
    await page.bringToFront();
    const linkUrl = await page.locator('#far').evaluate((link) => (link as HTMLAnchorElement).href);
    const outcome = await worker.evaluate(
      (url) =>
        (globalThis as unknown as ExtensionGlobals).lectern.onContextMenuClick({
          menuItemId: 'save-link',
          linkUrl: url,
        }),
      linkUrl,
    );
    expect(outcome).toMatchObject({
      kind: 'saved',
      title: 'Glaciers in Retreat',
      url: site.url('/glaciers'),
    });
    // The reader stayed where they were.
    expect(page.url()).toBe(site.url('/links'));
    expect(context.pages().some((open) => open.url() === site.url('/glaciers'))).toBe(false);
    await eventually(async () =>
      (await library()).some((article) => article.title === 'Glaciers in Retreat') ? true : null,
    );
    await page.close();
  });

  it('says why when it cannot save, and asks to sign in once signed out', async () => {
    const popup = await context.newPage();
    // Its own tab is no web page: refused in words.
    await popup.setViewportSize({ width: 360, height: 420 });
    await popup.goto(extensionPage('popup.html'));
    await popup.bringToFront();
    await popup.getByText('Couldn’t save this page').waitFor();
    await popup.getByText('Only web pages (http and https) can be saved').waitFor();
    await popup.getByRole('button', { name: 'Sign out' }).click();
    await popup.getByRole('heading', { name: 'Sign in to save pages' }).waitFor();
    await saveScreenshot(popup, 'extension-popup-sign-in');
    await popup.close();
  });
});
