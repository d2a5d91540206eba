// A new device signing in to a library already on the server (issue 16), in Chromium against the built app
// and the real server: the cards are listed first, the bodies follow in the background, and a reload in
// the middle, then no network, then the network back, end with exactly the server's library on the
// device: every article once with its body, tags, highlights and lists, nothing twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ArticleListResponse,
  ArticleResponse,
  HighlightsResponse,
  ListsResponse,
} from '@lectern/shared-schema';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchLibrary, growLibrary } from '../bench/support/bench-library';
import { seedDatabase } from '../bench/support/seed-library';
import { registerUser } from '../sync-server/src/services/users';
import type { ApiClient } from '../sync-server/test/support/api-client';
import { signIn } from './support/app-actions';
import { DESKTOP, startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { eventually } from './support/eventually';

const ARTICLES = 400;
const ACCOUNT = {
  email: 'new-device@example.com',
  password: 'correct horse battery',
  username: 'New Device',
};

let dataDir: string;
let world: BrowserWorld;
let api: ApiClient;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lectern-new-device-'));
  await seedDatabase(dataDir, async (db) => {
    const user = await registerUser(db, ACCOUNT);
    await growLibrary(db, benchLibrary(user.id, 16), ARTICLES);
  });
  world = await startBrowserWorld({ dataDir });
  const login = await world.api.post('/auth/login', { email: ACCOUNT.email, password: ACCOUNT.password });
  api = world.api.as(login.body.token);
  // Two lists, so lists and their places sync too.
  const { articles } = (await api.get<ArticleListResponse>('/articles')).body;
  for (const [name, from] of [
    ['Weekend', 0],
    ['Later', 50],
  ] as const) {
    const list = (await api.post('/lists', { name })).body.list;
    for (const article of articles.slice(from, from + 5))
      expect((await api.post(`/lists/${list.id}/articles`, { articleId: article.id })).status).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await world?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface DeviceState {
  articles: { id: string; tags: string[]; is_read: boolean; highlights_count: number }[];
  /** Cards still staged (a page per row), not yet moved into rows. */
  staged: number;
  /** Id and body length of every stored body. */
  bodies: [string, number][];
  tags: string[];
  highlights: string[];
  lists: string[];
  places: string[];
  bodiesWanted: boolean | undefined;
}

/** Everything the device's IndexedDB holds, read with the browser's own IndexedDB API. */
function deviceState(page: Page): Promise<DeviceState> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('lectern');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const all = (store: string) =>
      new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    type Row = Record<string, unknown>;
    const [rows, pages, contents, tags, highlights, lists, places, meta] = (await Promise.all(
      ['articles', 'card_pages', 'bodies', 'tags', 'highlights', 'lists', 'list_articles', 'meta'].map(all),
    )) as Row[][];
    db.close();
    // A first sync's cards staged a page per row until moved into rows (app/src/data/db/staged-cards.ts):
    // articles too, the row winning where both are.
    const staged = pages!.flatMap((page) => page.rows as Row[]);
    const inRows = new Set(rows!.map((row) => row.id));
    const articles = [...rows!, ...staged.filter((card) => !inRows.has(card.id))];
    return {
      staged: staged.length,
      articles: articles.map((row) => ({
        id: row.id as string,
        tags: row.tags as string[],
        is_read: row.is_read as boolean,
        highlights_count: row.highlights_count as number,
      })),
      // Bodies in packs (app/src/data/db/bodies.ts).
      bodies: contents!
        .flatMap((pack) => pack.bodies as Row[])
        .map((row) => [row.id as string, ((row.content as string | null) ?? '').length]),
      tags: tags!.map((row) => row.id as string),
      highlights: highlights!.map((row) => row.id as string),
      lists: lists!.map((row) => row.id as string),
      places: places!.map((row) => row.key as string),
      bodiesWanted: meta!.find((row) => row.key === 'bodiesWanted')?.value as boolean | undefined,
    };
  });
}

/** Goes to a route inside the app without loading a page (offline, nothing answers a navigation). */
async function navigateInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

const sorted = <T>(values: T[]) => [...values].sort();

describe('a new device', () => {
  it('lists every card at once and ends with exactly the server’s library after a reload, no network, and the network back', async () => {
    const context = await world.newContext(DESKTOP);
    // Bodies come slowly enough to reload in the middle of them; while `bodiesHeld` is set they wait for it,
    // then fail as they would without a network (the device is offline by then).
    let bodiesHeld: Promise<void> | null = null;
    await context.route('**/api/articles/bodies', async (route) => {
      if (bodiesHeld) {
        await bodiesHeld;
        return route.abort('internetdisconnected');
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
      return route.continue();
    });
    const page = await context.newPage();
    // The bodies are read and stored by a worker of their own, out of the page's heap (offline/body-answers.ts).
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    await signIn(page, ACCOUNT);
    await page
      .locator('.stat-card--total .stat-card__value', { hasText: ARTICLES.toLocaleString('en-US') })
      .waitFor({ timeout: 30_000 });

    // In the middle of the bodies: some on the device, not all.
    let mid = await deviceState(page);
    await eventually(async () => {
      mid = await deviceState(page);
      expect(mid.bodies.length).toBeGreaterThan(120);
    }, 30_000);
    expect(mid.articles).toHaveLength(ARTICLES);
    expect(mid.bodies.length).toBeLessThan(ARTICLES);
    expect(workers.filter((url) => url.includes('body-answers.worker'))).not.toHaveLength(0);

    // The app installed on this device: its service worker holds every screen once active, and takes over
    // the page at its next load (a first visit's page stays the network's). Going offline before that, a
    // screen not opened yet can't be fetched (ScreenLoadBoundary says so). The bodies wait meanwhile, so that
    // the device is still in the middle of them when the network goes.
    let releaseBodies = () => {};
    bodiesHeld = new Promise<void>((resolve) => (releaseBodies = resolve));
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.reload();
    await page.getByRole('heading', { name: 'My Articles' }).waitFor();
    await expect(page.evaluate(() => navigator.serviceWorker.controller !== null)).resolves.toBe(true);
    await context.setOffline(true);
    releaseBodies();
    await page.waitForTimeout(1000);
    const offline = await deviceState(page);
    expect(offline.bodies.length).toBeLessThan(ARTICLES);
    expect(offline.bodiesWanted).toBe(true);

    // An article whose body hasn't come: the reader says so instead of "could not be extracted".
    const have = new Set(offline.bodies.map(([id]) => id));
    const missing = offline.articles.find((article) => !have.has(article.id))!;
    await navigateInApp(page, `/article/${missing.id}`);
    await page
      .getByText('The full text of this article isn’t on this device yet.', { exact: false })
      .waitFor();
    await expect(page.getByText('Full article content could not be extracted.').count()).resolves.toBe(0);

    // Back online: the reader fetches that body at once, and the rest follow.
    bodiesHeld = null;
    await context.setOffline(false);
    await page.locator('.reader-body').waitFor({ timeout: 30_000 });
    await navigateInApp(page, '/');
    let done = await deviceState(page);
    await eventually(async () => {
      done = await deviceState(page);
      expect(done.bodies).toHaveLength(ARTICLES);
      expect(done.bodiesWanted).toBe(false);
      // Every card moved into a row once the bodies are in.
      expect(done.staged).toBe(0);
    }, 90_000);

    // Exactly the server's library, nothing twice.
    const server = (await api.get<ArticleListResponse>('/articles')).body.articles;
    const ids = done.articles.map((article) => article.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(sorted(ids)).toEqual(sorted(server.map((article) => article.id)));
    const local = new Map(done.articles.map((article) => [article.id, article]));
    for (const article of server)
      expect(local.get(article.id)).toEqual({
        id: article.id,
        tags: article.tags,
        is_read: article.is_read,
        highlights_count: article.highlights_count,
      });
    const bodyLength = new Map(done.bodies);
    for (const { id } of server) {
      const { article } = (await api.get<ArticleResponse>(`/articles/${id}`)).body;
      expect(bodyLength.get(id)).toBe(article.content?.length ?? 0);
    }
    const tags = (await api.get<{ tags: { id: string }[] }>('/tags')).body.tags;
    expect(sorted(done.tags)).toEqual(sorted(tags.map((tag) => tag.id)));
    const highlights = (await api.get<HighlightsResponse>('/highlights')).body.highlights;
    expect(highlights.length).toBeGreaterThan(0);
    expect(sorted(done.highlights)).toEqual(sorted(highlights.map((highlight) => highlight.id)));
    const lists = (await api.get<ListsResponse>('/lists')).body.lists;
    expect(sorted(done.lists)).toEqual(sorted(lists.map((list) => list.id)));
    const places: string[] = [];
    for (const list of lists) {
      const { articles } = (await api.get<{ articles: { id: string }[] }>(`/lists/${list.id}`)).body;
      places.push(...articles.map((article) => `${list.id}:${article.id}`));
    }
    expect(places).toHaveLength(10);
    expect(sorted(done.places)).toEqual(sorted(places));
    await context.close();
  });
});
