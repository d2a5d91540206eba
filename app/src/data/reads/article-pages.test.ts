// The dashboard's list read a window at a time from the list keys' index (db/list-keys.ts) is exactly the
// whole list, filtered and sorted in memory as before (listArticles), at every offset, for every filter,
// tag and order the dashboard has; and a window followed live sees a write.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { liveQuery } from 'dexie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tagNameKey, type ArticlesQuery } from '@lectern/shared-schema';
import { LecternDb } from '../db/lectern-db';
import { articleSummary } from '../testing/article-summary';
import { LIVE_ANSWER } from '../testing/live-answer';
import type { ArticleOrder } from './article-order';
import { idsInList, listedIds, pageArticles } from './article-pages';
import { hasPendingFetches, listArticles } from './article-reads';

const SIZE = 400;
const TAGS = ['News', 'Café', 'longreads', 'Ελληνικά', 'later'];
const TITLES = [
  'Chapter 2',
  'chapter 10',
  'Álgebra basics',
  'banana bread',
  'Zebra crossings',
  'Über alles',
  '東京の夜',
  'Москва весной',
  '  spaced   out title ',
  '"Quoted" title',
  '',
];

/** A seeded generator: every run sees the same library. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function library() {
  const next = random(16);
  return Array.from({ length: SIZE }, (_, i) => {
    const tags = TAGS.filter(() => next() < 0.3);
    // Few distinct times and titles: ties on both, broken by id as the lists break them.
    const day = 1 + Math.floor(next() * 28);
    const created_at = `2026-0${1 + Math.floor(next() * 3)}-${String(day).padStart(2, '0')}T10:00:00.000Z`;
    const title = `${TITLES[Math.floor(next() * TITLES.length)]}${next() < 0.5 ? '' : ` ${Math.floor(next() * 12)}`}`;
    return {
      ...articleSummary(`article-${String(Math.floor(next() * 1e6)).padStart(6, '0')}-${i}`, {
        title,
        created_at,
        is_read: next() < 0.4,
        is_favorite: next() < 0.2,
        is_archived: next() < 0.25,
        tags,
      }),
      tag_keys: tags.map(tagNameKey),
      rev: i + 1,
    };
  });
}

/** Every filter the dashboard can ask for (dashboard-filter.ts: archived always said, favorites only true). */
function dashboardQueries(): ArticlesQuery[] {
  const queries: ArticlesQuery[] = [];
  for (const archived of [false, true])
    for (const favorite of [undefined, true])
      for (const is_read of [undefined, false, true])
        for (const tag_name of [undefined, 'news', 'CAFÉ', 'Ελληνικά', 'no such tag']) {
          const query: ArticlesQuery = { archived };
          if (favorite !== undefined) query.favorite = favorite;
          if (is_read !== undefined) query.is_read = is_read;
          if (tag_name !== undefined) query.tag_name = tag_name;
          queries.push(query);
        }
  return queries;
}

const ORDERS: ArticleOrder[] = ['newest', 'oldest', 'title'];
let db: LecternDb;

beforeAll(async () => {
  db = new LecternDb('article-pages-test', { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.open();
  await db.articles.bulkPut(library());
});

afterAll(() => db.close());

const ids = (articles: { id: string }[]) => articles.map((article) => article.id);

/** A live query answers after the write's transaction: later on a machine busy with other tests. */

describe('the dashboard list read a window at a time', () => {
  it('gives exactly the whole list’s rows at its start, middle and end, and its total, for every filter, tag and order', async () => {
    let checked = 0;
    for (const query of dashboardQueries()) {
      for (const order of ORDERS) {
        const whole = ids((await listArticles(db, query, order)).articles);
        const name = `${JSON.stringify(query)} ${order}`;
        const middle = Math.floor(whole.length / 2);
        for (const [start, end] of [
          [0, 24],
          [middle - 5, middle + 7],
          [Math.max(0, whole.length - 10), whole.length + 30],
          [whole.length + 5, whole.length + 50],
        ] as const) {
          const page = await pageArticles(db, query, order, start, end);
          expect(page.total, name).toBe(whole.length);
          expect(page.start, name).toBe(Math.max(0, start));
          expect(ids(page.articles), `${name} [${start}, ${end})`).toEqual(
            whole.slice(Math.max(0, start), end),
          );
        }
        expect(await listedIds(db, query, order), name).toEqual(whole);
        if (whole.length > 0) checked += 1;
      }
    }
    // The library meets most lists: the comparisons above aren't of empty lists only.
    expect(checked).toBeGreaterThan(100);
  });

  it('answers the same summaries as the whole list (no index keys, the same fields)', async () => {
    const query = { archived: false, tag_name: 'news' };
    const whole = (await listArticles(db, query, 'title')).articles;
    const page = await pageArticles(db, query, 'title', 0, whole.length);
    expect(page.articles).toEqual(whole);
    expect(page.articles.every((article) => !('list_keys' in article) && !('tag_keys' in article))).toBe(
      true,
    );
  });

  it('answers the same object for an article unchanged since the last read, a new one once it changes', async () => {
    const query = { archived: false };
    const first = await pageArticles(db, query, 'oldest', 0, 5);
    const again = await pageArticles(db, query, 'oldest', 0, 5);
    expect(again.articles).toEqual(first.articles);
    again.articles.forEach((article, i) => expect(article).toBe(first.articles[i]));
    const row = (await db.articles.get(first.articles[0]!.id))!;
    await db.articles.put({ ...row, reading_progress: 0.5, rev: row.rev + 2000 });
    const changed = await pageArticles(db, query, 'oldest', 0, 5);
    expect(changed.articles[0]).not.toBe(first.articles[0]);
    expect(changed.articles[0]!.reading_progress).toBe(0.5);
    expect(changed.articles[1]).toBe(first.articles[1]);
    await db.articles.put(row);
  });

  it('tells which of the selected articles a list holds', async () => {
    const query = { archived: true, is_read: true };
    const inList = ids((await listArticles(db, query, 'newest')).articles);
    const outside = ids((await listArticles(db, { archived: false }, 'newest')).articles).slice(0, 3);
    const asked = [inList[0]!, outside[0]!, inList[1]!, 'no-such-article', outside[1]!];
    expect(await idsInList(db, query, asked)).toEqual([inList[0], inList[1]]);
    // Select All's many: the same answer from the list's keys.
    const all = ids((await listArticles(db, {}, 'newest')).articles);
    expect(all.length).toBeGreaterThan(200);
    expect(await idsInList(db, query, all)).toEqual(all.filter((id) => inList.includes(id)));
  });

  it('shows a write in the window followed, and in the lists it leaves and joins', async () => {
    const unread = { archived: false, is_read: false };
    const read = { archived: false, is_read: true };
    const before = await pageArticles(db, unread, 'newest', 0, 24);
    const readBefore = await pageArticles(db, read, 'newest', 0, 24);
    const first = before.articles[0]!;
    const answers: string[][] = [];
    const subscription = liveQuery(() => pageArticles(db, unread, 'newest', 0, 24)).subscribe({
      next: (page) => answers.push(ids(page.articles)),
      // A read that failed says why in the answers, rather than as an answer that never comes.
      error: (error: unknown) => answers.push([`failed: ${String(error)}`]),
    });
    await expect.poll(() => answers.length, LIVE_ANSWER).toBe(1);
    expect(answers[0]).toEqual(ids(before.articles));

    // Marked read (a put of the row, as every local write and sync makes): it leaves Unread, joins Read.
    const row = (await db.articles.get(first.id))!;
    await db.articles.put({ ...row, is_read: true, rev: row.rev + 1000 });
    await expect.poll(() => answers.length, LIVE_ANSWER).toBe(2);
    expect(answers[1]).toEqual(ids((await listArticles(db, unread, 'newest')).articles).slice(0, 24));
    expect(answers[1]).not.toContain(first.id);
    const after = await pageArticles(db, unread, 'newest', 0, 24);
    expect(after.total).toBe(before.total - 1);
    const readAfter = await pageArticles(db, read, 'newest', 0, readBefore.total + 1);
    expect(readAfter.total).toBe(readBefore.total + 1);
    expect(ids(readAfter.articles)).toContain(first.id);

    // A new article saved now: first of Newest First at once.
    await db.articles.put({
      ...articleSummary('article-new', { created_at: '2026-11-24T03:00:00.000Z', title: 'Fresh' }),
      tag_keys: [],
      rev: 5000,
    });
    await expect.poll(() => answers.at(-1)?.[0], LIVE_ANSWER).toBe('article-new');
    subscription.unsubscribe();

    // Renamed: its place in A-Z moves with its title key.
    const titled = async () => ids((await pageArticles(db, unread, 'title', 0, SIZE)).articles);
    const placeBefore = (await titled()).indexOf('article-new');
    const renamed = (await db.articles.get('article-new'))!;
    await db.articles.put({ ...renamed, title: 'Zzz last of all', rev: 5001 });
    const titles = await titled();
    expect(titles).toEqual(ids((await listArticles(db, unread, 'title')).articles));
    expect(titles.indexOf('article-new')).toBeGreaterThan(placeBefore);
    await db.articles.delete('article-new');
    expect(ids((await pageArticles(db, unread, 'newest', 0, 1)).articles)).not.toContain('article-new');
  });

  it('tells the sync whether the server still works on an article, by its key, without the library', async () => {
    expect(await hasPendingFetches(db)).toBe(false);
    const [fetching, archiving] = (await listArticles(db, { archived: false }, 'newest')).articles;
    const fetchingRow = (await db.articles.get(fetching!.id))!;
    const archivingRow = (await db.articles.get(archiving!.id))!;
    await db.articles.put({ ...fetchingRow, fetch_state: 'pending', rev: fetchingRow.rev + 3000 });
    expect(await hasPendingFetches(db)).toBe(true);
    await db.articles.put({ ...archivingRow, images_pending: true, rev: archivingRow.rev + 3000 });
    await db.articles.put({ ...fetchingRow, fetch_state: 'failed', rev: fetchingRow.rev + 3001 });
    expect(await hasPendingFetches(db)).toBe(true);
    await db.articles.put({ ...archivingRow, images_pending: false, rev: archivingRow.rev + 3001 });
    expect(await hasPendingFetches(db)).toBe(false);
  });
});
