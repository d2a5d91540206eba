// A window deep in a long list is read from the nearest place of the list read before it (list-places.ts),
// not from a cursor advanced from the list's start, and it is still exactly the whole list's rows: walked
// down, up and at random, with ties of dates and titles, and after writes before the places known.
import '../testing/install-fake-indexeddb';
import { IDBCursor, IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tagNameKey, type ArticlesQuery } from '@lectern/shared-schema';
import { LecternDb } from '../db/lectern-db';
import { nextRev } from '../db/local-store';
import { articleSummary } from '../testing/article-summary';
import type { ArticleOrder } from './article-order';
import { pageArticles, READ_FROM_START_BELOW } from './article-pages';
import { listArticles } from './article-reads';

const SIZE = 600;
const WINDOW = 24;

function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * Times mostly distinct, as saves' are, but every fifth the same as another's (runs of equal keys, walked
 * by id); three titles, so A-Z is a few long runs.
 */
function article(i: number, next: () => number, rev: number) {
  const second = i % 5 === 0 && i > 0 ? i - 1 : i;
  const tags = next() < 0.4 ? ['News'] : [];
  return {
    ...articleSummary(`article-${String(Math.floor(next() * 1e6)).padStart(6, '0')}-${i}`, {
      title: ['Same title', 'Other title', 'Zed'][Math.floor(next() * 3)]!,
      created_at: `2026-03-01T10:${String(Math.floor(second / 60)).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}.000Z`,
      is_read: next() < 0.4,
      is_archived: next() < 0.1,
      tags,
    }),
    tag_keys: tags.map(tagNameKey),
    rev,
  };
}

let db: LecternDb;

beforeAll(async () => {
  db = new LecternDb('list-places-test', { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.open();
  const next = random(7);
  await db.articles.bulkPut(Array.from({ length: SIZE }, (_, i) => article(i, next, i + 1)));
});

afterAll(() => db.close());
afterEach(() => vi.restoreAllMocks());

const ids = (articles: { id: string }[]) => articles.map((found) => found.id);
const LISTS: [ArticlesQuery, ArticleOrder][] = [
  [{ archived: false }, 'newest'],
  [{ archived: false }, 'oldest'],
  [{ archived: false }, 'title'],
  [{ archived: false, is_read: false, tag_name: 'news' }, 'newest'],
];

/** Entries the database's cursors skipped while `read` ran (Dexie's offset is a cursor's advance). */
async function skipped(read: () => Promise<unknown>): Promise<number> {
  const advance = vi.spyOn(IDBCursor.prototype, 'advance');
  await read();
  const steps = advance.mock.calls.reduce((sum, [count]) => sum + count, 0);
  advance.mockRestore();
  return steps;
}

describe('a window read from the nearest place known before it', () => {
  it('answers exactly the whole list walked down, up and at random, for each order and a filtered list', async () => {
    const jump = random(11);
    for (const [query, order] of LISTS) {
      const whole = ids((await listArticles(db, query, order)).articles);
      const name = `${JSON.stringify(query)} ${order}`;
      expect(whole.length, name).toBeGreaterThan(3 * WINDOW);
      const starts = [
        ...Array.from({ length: Math.ceil(whole.length / WINDOW) }, (_, i) => i * WINDOW),
        ...Array.from({ length: Math.ceil(whole.length / WINDOW) }, (_, i) => whole.length - (i + 1) * 7),
        ...Array.from({ length: 30 }, () => Math.floor(jump() * whole.length)),
      ].map((start) => Math.max(0, start));
      for (const start of starts) {
        const page = await pageArticles(db, query, order, start, start + WINDOW);
        expect(ids(page.articles), `${name} at ${start}`).toEqual(whole.slice(start, start + WINDOW));
        expect(page.total, name).toBe(whole.length);
      }
    }
  });

  it('skips only the entries after the nearest place, not the list before it', async () => {
    const query = { archived: false };
    const whole = ids((await listArticles(db, query, 'newest')).articles);
    const deep = whole.length - WINDOW;
    // Never read before in this order: the cursor walks from the list's start.
    await db.articles.put({ ...(await db.articles.get(whole[0]!))!, rev: await nextRev(db) });
    expect(await skipped(() => pageArticles(db, query, 'newest', deep, deep + WINDOW))).toBeGreaterThan(
      deep - WINDOW,
    );
    // Walked down a window at a time, as a scroll reads it: past the first screens, read from the list's
    // start, each window starts from the one before it.
    for (let start = 0; start < deep; start += WINDOW) {
      const walked = await skipped(() => pageArticles(db, query, 'newest', start, start + WINDOW));
      if (start < READ_FROM_START_BELOW) expect(walked, `at ${start}`).toBeLessThan(start + 1);
      else if (start >= READ_FROM_START_BELOW + WINDOW)
        expect(walked, `at ${start}`).toBeLessThan(2 * WINDOW);
    }
    const page = await pageArticles(db, query, 'newest', deep, deep + WINDOW);
    expect(ids(page.articles)).toEqual(whole.slice(deep));
  });

  it('reads the list from its start again after a write, a save, a delete or a rename before the places known', async () => {
    const next = random(23);
    for (const [query, order] of LISTS) {
      const name = `${JSON.stringify(query)} ${order}`;
      const readAll = async () => {
        const whole = ids((await listArticles(db, query, order)).articles);
        for (let start = 0; start < whole.length; start += WINDOW) {
          const page = await pageArticles(db, query, order, start, start + WINDOW);
          expect(ids(page.articles), `${name} at ${start}`).toEqual(whole.slice(start, start + WINDOW));
        }
        return whole;
      };
      const whole = await readAll();
      // A new article that sorts first in every list, as a save does (a new, highest rev).
      const saved = article(SIZE + 1, next, await nextRev(db));
      await db.articles.put({
        ...saved,
        created_at: '2026-12-01T10:00:00.000Z',
        title: 'Aaa first',
        is_read: false,
        is_archived: false,
        tags: ['News'],
        tag_keys: ['news'],
      });
      expect((await readAll()).length, name).toBe(whole.length + 1);
      // Deleted again: the list is the one before, read right.
      await db.articles.delete(saved.id);
      expect(await readAll(), name).toEqual(whole);
      // An article near the start renamed to the end of A-Z, and one deep down marked read.
      const first = (await db.articles.get(whole[1]!))!;
      await db.articles.put({ ...first, title: 'Zzzz', rev: await nextRev(db) });
      const deep = (await db.articles.get(whole[whole.length - 2]!))!;
      await db.articles.put({ ...deep, is_read: !deep.is_read, rev: await nextRev(db) });
      const changed = await readAll();
      // One near the start deleted, which leaves the newest rev as it was: the count says it.
      await db.articles.delete(changed[2]!);
      expect((await readAll()).length, name).toBe(changed.length - 1);
    }
  });
});
