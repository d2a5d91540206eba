// The "Save to Lectern" bookmarklet in Chromium against the built app and the real server. The code a
// reader drags is read from the profile screen's link and run in the page (what clicking a bookmarklet
// does); it opens Lectern's small /save window, which takes the page's HTML by postMessage and saves it.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlePage } from '../sync-server/test/support/fixture-site';
import { card, newAccount, signUp } from './support/app-actions';
import { repoRoot, startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { eventually } from './support/eventually';

const prose = (topic: string) =>
  `This paragraph about ${topic} is long enough for a reader view to treat it as real prose, with ` +
  `several clauses, commas and full sentences, so that the page scores as an article.`;

const ARTICLE = articlePage({
  title: 'Night Trains of Europe',
  description: 'Sleeping cars, border crossings and dining cars.',
  paragraphs: [prose('sleeping cars'), prose('border crossings at night'), prose('the dining car')],
}).replace(/^[\s\S]*<body>|<\/body>[\s\S]*$/g, '');

const ARTIFACTS = join(repoRoot, 'test-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

const NONCE = 'r4nd0m-n0nce';

/** A page that writes its article with a script, behind a strict CSP (no fetch, no inline style). */
function scriptPage(title: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><div id="app">Loading…</div><script nonce="${NONCE}">
document.getElementById('app').innerHTML = ${JSON.stringify(ARTICLE.replace(/Night Trains of Europe/g, title))};
</script></body></html>`;
}

const STRICT_CSP = `default-src 'none'; script-src 'nonce-${NONCE}'; connect-src 'none'; style-src 'none'; img-src 'none'`;

/** A site of our own: pages with the headers a test needs (the shared fixture site sends none). */
async function startStrictSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const headers: Record<string, string> = {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': STRICT_CSP,
    };
    if (path === '/night-trains')
      return void response.writeHead(200, headers).end(scriptPage('Night Trains of Europe'));
    if (path === '/isolated') {
      // Cuts every link to windows it opens: the save window gets no page and falls back to the address.
      headers['cross-origin-opener-policy'] = 'same-origin';
      return void response.writeHead(200, headers).end(scriptPage('Isolated Ferries'));
    }
    if (path === '/signed-out')
      return void response.writeHead(200, headers).end(scriptPage('Signed Out Story'));
    response.writeHead(404, headers).end('<h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let world: BrowserWorld;
let site: Awaited<ReturnType<typeof startStrictSite>>;

beforeAll(async () => {
  site = await startStrictSite();
  world = await startBrowserWorld({ moreAllowedOrigins: [site.origin] });
});

afterAll(async () => {
  await world?.close();
  await site?.close();
});

async function newContext(): Promise<BrowserContext> {
  return world.browser.newContext({ baseURL: world.server.url, serviceWorkers: 'block' });
}

/** The bookmarklet's code exactly as the profile screen offers it to drag. */
async function bookmarkletFromProfile(page: Page): Promise<string> {
  await page.goto('/profile');
  const link = page.getByRole('link', { name: 'Save to Lectern' });
  await link.waitFor();
  expect(await link.getAttribute('draggable')).toBe('true');
  const href = (await link.getAttribute('href')) ?? '';
  expect(href.startsWith('javascript:')).toBe(true);
  return decodeURIComponent(href.slice('javascript:'.length));
}

/** Runs the bookmarklet in the page, as a click on it in the bookmarks bar does; answers its window. */
async function clickBookmarklet(page: Page, source: string): Promise<Page> {
  const opened = page.waitForEvent('popup');
  await page.evaluate(source);
  return opened;
}

describe('the bookmarklet', () => {
  it('saves a script-built page under a strict CSP whole, confirms on the page, and it shows on the dashboard', async () => {
    const context = await newContext();
    const lectern = await context.newPage();
    await signUp(lectern, newAccount('bookmarklet'));
    const source = await bookmarkletFromProfile(lectern);

    // The Help page offers the same link.
    await lectern.goto('/help');
    await lectern.getByRole('heading', { name: 'Save from any page' }).waitFor();
    await lectern.locator('#save-anywhere').screenshot({ path: join(ARTIFACTS, 'bookmarklet-help.png') });
    expect(await lectern.getByRole('link', { name: 'Save to Lectern' }).getAttribute('href')).toBe(
      `javascript:${encodeURIComponent(source)}`,
    );

    const page = await context.newPage();
    await page.goto(`${site.origin}/night-trains`);
    await page.getByRole('heading', { name: 'Night Trains of Europe' }).waitFor();
    // This page may fetch nothing from anywhere: a bookmarklet that posted to the API itself would fail.
    const fetchBlocked = await page.evaluate(async (url) => {
      try {
        await fetch(url);
        return false;
      } catch {
        return true;
      }
    }, `${world.server.url}/api/health`);
    expect(fetchBlocked).toBe(true);

    const saveWindow = await clickBookmarklet(page, source);
    expect(new URL(saveWindow.url()).pathname).toBe('/save');
    const note = page.locator('[data-lectern-note]');
    await note.waitFor();
    expect(await note.textContent()).toBe('Saved to Lectern');
    await page.screenshot({ path: join(ARTIFACTS, 'bookmarklet-saved-note.png') });
    await saveWindow.waitForEvent('close');

    const token = await lectern.evaluate(() => localStorage.getItem('token'));
    const { body } = await world.api.as(token).get('/articles');
    expect(body.articles.map((a: { url: string }) => a.url)).toEqual([`${site.origin}/night-trains`]);
    const saved = await world.api.as(token).get(`/articles/${body.articles[0].id}`);
    // Extracted from what the browser showed: the script's article, not the "Loading…" a fetch sees.
    expect(saved.body.article.content).toContain('the dining car');

    await lectern.goto('/');
    await card(lectern, 'Night Trains of Europe').waitFor();

    // Clicked again on the same page: the library already holds it.
    const again = await clickBookmarklet(page, source);
    await eventually(async () =>
      (await note.last().textContent()) === 'Already in your Lectern library' ? true : null,
    );
    await again.waitForEvent('close');
    await context.close();
  }, 60_000);

  it('falls back to the /share screen with the address when the page cuts the link to its windows', async () => {
    const context = await newContext();
    const lectern = await context.newPage();
    await signUp(lectern, newAccount('isolated'));
    const source = await bookmarkletFromProfile(lectern);
    const page = await context.newPage();
    await page.goto(`${site.origin}/isolated`);
    const saveWindow = await clickBookmarklet(page, source);
    await saveWindow.waitForURL((url) => url.pathname === '/share', { timeout: 15_000 });
    expect(new URL(saveWindow.url()).searchParams.get('url')).toBe(`${site.origin}/isolated`);
    await saveWindow.getByText('Save this link to your library?').waitFor();
    await saveWindow.getByRole('button', { name: 'Save', exact: true }).click();
    await saveWindow.getByText('Saved to your library.').waitFor();
    await context.close();
  }, 60_000);

  it('says so on the page, with a link to sign in, when the reader is not signed in', async () => {
    const context = await newContext();
    const lectern = await context.newPage();
    // The Help page is public: a visitor who never signed in can take the bookmarklet from there.
    await lectern.goto('/help');
    const href = (await lectern.getByRole('link', { name: 'Save to Lectern' }).getAttribute('href')) ?? '';
    const source = decodeURIComponent(href.slice('javascript:'.length));
    const page = await context.newPage();
    await page.goto(`${site.origin}/signed-out`);
    const saveWindow = await clickBookmarklet(page, source);
    await saveWindow.getByText('You’re not signed in to Lectern.').waitFor();
    await saveWindow.getByRole('link', { name: 'Sign in' }).waitFor();
    const note = page.locator('[data-lectern-note]');
    await note.waitFor();
    expect(await note.textContent()).toBe('You’re not signed in to Lectern.Sign in to Lectern');
    expect(await note.getByRole('link', { name: 'Sign in to Lectern' }).getAttribute('href')).toBe(
      `${world.server.url}/login`,
    );
    await context.close();
  }, 60_000);
});
