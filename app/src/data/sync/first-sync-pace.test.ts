// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"fetch":{"disableSameOriginPolicy":true}}}
// While a first sync stores its pages of cards, the screens' live reads run at most every
// FIRST_SYNC_REFRESH_MS, and always once the last page is in, or once the pull ends without it. Against a
// real server, with a clock the test moves. In a page (happy-dom): a pull that fails has the live reads
// run again through the page's own event (page-restore.ts).
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { TOKEN_STORAGE_KEY } from '@lectern/shared-schema';
import { liveQuery } from 'dexie';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpClient, type FetchLike } from '../api/http-client';
import { ARTICLE_COUNTS_KEY, statsOf } from '../db/article-counts';
import { LecternDb } from '../db/lectern-db';
import { stageCards } from '../db/staged-cards';
import { articleSummary } from '../testing/article-summary';
import { rememberReader } from '../testing/device-user';
import { startSeededServer, type SeededServer } from '../testing/seeded-server';
import { memoryStorage } from '../testing/test-lectern';
import { createArticleSearch } from '../search/article-search';
import { FIRST_SYNC_REFRESH_MS, paceLiveReads, pacedQuerier } from './first-sync-pace';
import { pullChanges } from './pull';

const ARTICLES = 120;
/** Changes a page: the feed comes in several pages. */
const LIMIT = 25;

let seeded: SeededServer;

beforeAll(async () => {
  seeded = await startSeededServer(
    { email: 'first-sync-pace@example.com', password: 'correct horse battery', username: 'Pace' },
    ARTICLES,
  );
}, 120_000);

afterAll(async () => {
  await seeded?.server.close();
});

/**
 * A device pulling from the seeded server, the clock moved by `onRequest` at each page asked for, and a
 * paced live read of the library's total: every total it answered, and how many times it really ran.
 */
async function pacedDevice(onRequest: (request: number) => void) {
  const storage = memoryStorage();
  storage.setItem(TOKEN_STORAGE_KEY, seeded.token);
  let requests = 0;
  const fetchPages: FetchLike = (url, init) => {
    if (String(url).includes('/sync/changes')) onRequest((requests += 1));
    return fetch(url, init);
  };
  const http = createHttpClient({
    baseUrl: seeded.server.url,
    fetch: fetchPages,
    tokenStorage: storage,
    onUnauthorized: () => undefined,
  });
  const db = new LecternDb(`first-sync-pace-${Date.now()}-${Math.random()}`, {
    indexedDB: new IDBFactory(),
    IDBKeyRange,
  });
  await rememberReader(db);
  const clock = { now: 0 };
  const read = { runs: 0, totals: [] as number[] };
  const subscription = liveQuery(
    pacedQuerier(
      db,
      async () => {
        read.runs += 1;
        return statsOf(await db.articleCounts()).total;
      },
      () => clock.now,
    ),
  ).subscribe({ next: (total) => read.totals.push(total) });
  await vi.waitFor(() => expect(read.runs).toBe(1));
  return {
    db,
    http,
    clock,
    read,
    pages: () => requests,
    close() {
      subscription.unsubscribe();
      db.close();
    },
  };
}

describe("a first sync's pace", () => {
  it('runs a live read again only once FIRST_SYNC_REFRESH_MS went by, and at the last page', async () => {
    const device = await pacedDevice((request) => {
      // The clock moves on by the pace's length at every third page asked for.
      if (request % 3 === 0) device.clock.now += FIRST_SYNC_REFRESH_MS;
    });
    try {
      await pullChanges(device.http, device.db, LIMIT);
      const pages = device.pages();
      expect(pages).toBeGreaterThanOrEqual(6);
      await vi.waitFor(() => expect(device.read.totals.at(-1)).toBe(ARTICLES));
      // The first read, one for each move of the clock, the last page's: far fewer than a run a page.
      expect(device.read.runs).toBeLessThanOrEqual(2 + Math.floor(pages / 3));
      expect(device.read.runs).toBeGreaterThanOrEqual(3);
      // Between its runs it answered what it last did: the totals only went up, to the whole library.
      expect(device.read.totals).toEqual([...device.read.totals].sort((a, b) => a - b));

      // Once the first sync is over, any write of what it read runs it again at once, the clock still.
      const runs = device.read.runs;
      await device.db.article_counts.put((await device.db.article_counts.get(ARTICLE_COUNTS_KEY))!);
      await vi.waitFor(() => expect(device.read.runs).toBe(runs + 1));
    } finally {
      device.close();
    }
  });

  it('runs a live read paced with an old answer again when the pull fails before its last page', async () => {
    const device = await pacedDevice((request) => {
      if (request === 4) throw new TypeError('Failed to fetch');
    });
    try {
      await expect(pullChanges(device.http, device.db, LIMIT)).rejects.toThrow();
      // Three pages stored, the clock standing still: the read answered 0 all along, then runs again once.
      const stored = statsOf(await device.db.articleCounts()).total;
      expect(stored).toBeGreaterThan(0);
      expect(stored).toBeLessThan(ARTICLES);
      await vi.waitFor(() => expect(device.read.totals.at(-1)).toBe(stored));
      expect(new Set(device.read.totals)).toEqual(new Set([0, stored]));
      expect(device.read.runs).toBe(2);
    } finally {
      device.close();
    }
  });

  it('holds a catch-up under way at its next pause until the pages of cards are in', async () => {
    const db = new LecternDb(`first-sync-pace-catch-up-${Date.now()}`, {
      indexedDB: new IDBFactory(),
      IDBKeyRange,
    });
    await rememberReader(db);
    // More staged cards than a catch-up takes in between two pauses.
    const cards = Array.from({ length: 600 }, (_, i) => articleSummary(`staged-${i}`));
    await db.transaction('rw', [...db.dataTables, db.article_counts], async () => {
      await stageCards(db, cards);
    });
    const search = createArticleSearch(db, { pause: () => Promise.resolve(), whenHidden: () => () => {} });
    try {
      paceLiveReads(db, true);
      // A search would not wait; a write-out's catch-up nobody waits for does.
      const flushing = search.flush();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(search.stats.catchUps).toBe(1);
      expect(search.stats.catchUpsEnded).toBe(0);
      paceLiveReads(db, false);
      await flushing;
      expect(search.stats.catchUpsEnded).toBe(1);
      expect(await search.search('Article staged-599')).toEqual(['staged-599']);
    } finally {
      search.stop();
      db.close();
    }
  });

  it('has the search index get ready only once the pages of cards are in', async () => {
    const db = new LecternDb(`first-sync-pace-search-${Date.now()}`, {
      indexedDB: new IDBFactory(),
      IDBKeyRange,
    });
    await rememberReader(db);
    const search = createArticleSearch(db, { pause: () => Promise.resolve(), whenHidden: () => () => {} });
    try {
      paceLiveReads(db, true);
      let prepared = false;
      const preparing = search.prepare().then(() => {
        prepared = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(prepared).toBe(false);
      expect(search.stats.catchUps).toBe(0);
      paceLiveReads(db, false);
      await preparing;
      expect(search.stats.catchUpsEnded).toBe(1);
    } finally {
      search.stop();
      db.close();
    }
  });
});
