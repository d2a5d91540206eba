// A large first sync stages every page of cards, its small last page too (db/staged-cards.ts): written as
// rows, that page's cards would each have been looked up among the staged pages, reading them all back,
// at the very end of the wait for the whole library to be listed. Against a real server.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { TOKEN_STORAGE_KEY, type ChangesResponse } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../api/http-client';
import { statsOf } from '../db/article-counts';
import { LecternDb } from '../db/lectern-db';
import { hasStagedCards, moveStagedCards, stagedCards } from '../db/staged-cards';
import { rememberReader } from '../testing/device-user';
import { startSeededServer, type SeededServer } from '../testing/seeded-server';
import { memoryStorage } from '../testing/test-lectern';
import { pullChanges } from './pull';

const ARTICLES = 300;
/** Cards in the first page: enough to be staged (250 or more), leaving a page of fewer. */
const FIRST_PAGE_CARDS = 260;

let seeded: SeededServer;

beforeAll(async () => {
  const reader = {
    email: 'first-sync-pages@example.com',
    password: 'correct horse battery',
    username: 'Pages',
  };
  seeded = await startSeededServer(reader, ARTICLES);
}, 120_000);

afterAll(async () => {
  await seeded?.server.close();
});

describe('a large first sync', () => {
  it('stages its small last page of cards with the others, then moves every card into rows once', async () => {
    // The whole feed as cards, to choose a page size whose first page holds FIRST_PAGE_CARDS cards.
    const answer = await fetch(`${seeded.server.url}/api/sync/changes?since=0&limit=1000&cards=true`, {
      headers: { authorization: `Bearer ${seeded.token}` },
    });
    const feed = (await answer.json()) as ChangesResponse;
    expect(feed.hasMore).toBe(false);
    const cardAt = feed.changes
      .map((change, i) => (change.entity === 'article' && change.op === 'upsert' ? i : -1))
      .filter((i) => i >= 0);
    expect(cardAt).toHaveLength(ARTICLES);
    const limit = cardAt[FIRST_PAGE_CARDS - 1]! + 1;
    expect(feed.changes.length - limit).toBeLessThanOrEqual(limit);

    const storage = memoryStorage();
    storage.setItem(TOKEN_STORAGE_KEY, seeded.token);
    const http = createHttpClient({
      baseUrl: seeded.server.url,
      fetch: (url, init) => fetch(url, init),
      tokenStorage: storage,
      onUnauthorized: () => undefined,
    });
    const db = new LecternDb(`first-sync-pages-${Date.now()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await rememberReader(db);
    try {
      expect(await pullChanges(http, db, limit)).toBe(feed.changes.length);
      // Every card staged, the last page's 40 too: no article row written by the pull.
      expect(await db.articles.count()).toBe(0);
      expect((await stagedCards(db))?.size).toBe(ARTICLES);
      expect(statsOf(await db.articleCounts()).total).toBe(ARTICLES);

      await moveStagedCards(db);
      expect(await db.articles.count()).toBe(ARTICLES);
      expect(await hasStagedCards(db)).toBe(false);
      expect(statsOf(await db.articleCounts()).total).toBe(ARTICLES);
    } finally {
      db.close();
    }
  });
});
