// A first sync's staged cards (db/staged-cards.ts) are articles like any other until they are moved into
// rows: read by id, listed, counted, edited and deleted, and the move leaves exactly the library the pages
// and the writes made meanwhile say, counted once.
import '../testing/install-fake-indexeddb';
import { liveQuery } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { compareNewestFirst, type Change } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { pageArticles } from '../reads/article-pages';
import { articlesWithTag, searchArticles } from '../reads/article-reads';
import { createArticleSearch } from '../search/article-search';
import { storeBodies } from '../offline/body-answers';
import { applyChanges } from '../sync/apply-changes';
import { articleSummary } from '../testing/article-summary';
import { rememberReader } from '../testing/device-user';
import { LIVE_ANSWER } from '../testing/live-answer';
import { countAll } from './article-counts';
import { LecternDb } from './lectern-db';
import { deleteArticleLocally } from './local-store';
import {
  STAGED_PAGE_CARDS,
  hasStagedCards,
  mergeNewestFirst,
  moveStagedCards,
  stagedNewestFirst,
} from './staged-cards';

const LIST = { archived: false } as const;

function openDb(): LecternDb {
  return new LecternDb(`staged-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
}

const card = (n: number, fields = {}) =>
  articleSummary(`a${String(n).padStart(3, '0')}`, {
    title: `Article ${n}`,
    created_at: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    tags: n % 3 === 0 ? ['garden'] : [],
    ...fields,
  });

/** The feed's cards: article rows without their body (`content`), as `?cards=true` answers them. */
const upserts = (cards: ReturnType<typeof card>[], from: number): Change[] =>
  cards.map((row, i) => ({
    seq: from + i,
    entity: 'article',
    id: row.id,
    op: 'upsert',
    row: row as Change['row'] & object,
  }));

/** Two pages of a first sync, staged: 150 cards. */
async function stagedLibrary(db: LecternDb) {
  const first = Array.from({ length: 100 }, (_, i) => card(i));
  const second = Array.from({ length: 50 }, (_, i) => card(100 + i));
  await applyChanges(db, upserts(first, 1), 100, { cardsPull: true, bodiesWanted: true, stageCards: true });
  await applyChanges(db, upserts(second, 101), 150, {
    cardsPull: false,
    bodiesWanted: true,
    stageCards: true,
  });
  return [...first, ...second];
}

/** The whole list as the dashboard reads it, newest first. */
async function listed(db: LecternDb) {
  return (await pageArticles(db, LIST, 'newest', 0, 1_000)).articles;
}

async function expectCountsMatchRows(db: LecternDb, total: number) {
  const rows = await db.articles.toArray();
  expect(rows).toHaveLength(total);
  const { key: _key, ...counts } = (await db.article_counts.get('library'))!;
  expect(counts).toEqual(countAll(rows));
}

describe('staged cards', () => {
  it('come newest first across pages whose dates interleave, as one sort of them all would order them', async () => {
    const db = openDb();
    // Three pages, each with dates from all over the library (a reader's saves, synced out of order), some
    // at the same minute (then ordered by id).
    const minute = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
    const pages = [0, 1, 2].map((page) =>
      Array.from({ length: 300 }, (_, i) =>
        card(page * 300 + i, { created_at: minute((i * 7 + page * 13) % 450) }),
      ),
    );
    let seq = 1;
    for (const [index, page] of pages.entries()) {
      await applyChanges(db, upserts(page, seq), seq + page.length - 1, {
        cardsPull: index < 2,
        bodiesWanted: true,
        stageCards: true,
      });
      seq += page.length;
    }
    const everyCard = pages.flat().map((c) => ({ ...c, tag_keys: [], rev: 0 }));
    const expected = [...everyCard].sort(compareNewestFirst).map((c) => c.id);
    expect((await stagedNewestFirst(db))!.map((c) => c.id)).toEqual(expected);
    expect((await listed(db)).map((article) => article.id)).toEqual(expected);
    // The merge alone, over lists of every length, empty ones included.
    for (const lengths of [[], [0], [5], [3, 0, 4], [1, 2, 3, 4, 5]]) {
      const lists = lengths.map((length, l) =>
        everyCard.slice(l * 50, l * 50 + length).sort(compareNewestFirst),
      );
      expect(mergeNewestFirst(lists)).toEqual(lists.flat().sort(compareNewestFirst));
    }
  });

  it('keep a large page of the feed in rows of STAGED_PAGE_CARDS, listed and counted whole', async () => {
    const db = openDb();
    // A feed page of cards holds up to five thousand: one row of them would take the page's thread for
    // over 100 ms to make ready and copy for IndexedDB.
    const total = 2 * STAGED_PAGE_CARDS + 100;
    const cards = Array.from({ length: total }, (_, i) =>
      card(i, { id: `big${String(i).padStart(5, '0')}` }),
    );
    await applyChanges(db, upserts(cards, 1), total, {
      cardsPull: false,
      bodiesWanted: true,
      stageCards: true,
    });
    const pages = await db.card_pages.toArray();
    expect(pages.map((page) => page.rows.length)).toEqual([STAGED_PAGE_CARDS, STAGED_PAGE_CARDS, 100]);
    const ids = await db.card_page_ids.toArray();
    expect(ids.map((row) => row.key)).toEqual(pages.map((page) => page.key));
    expect(ids.flatMap((row) => row.ids)).toEqual(cards.map((c) => c.id));
    expect((await pageArticles(db, LIST, 'newest', 0, 10)).total).toBe(total);
    expect(await db.articleCounts()).toMatchObject({ total });
    expect(await db.articles.get(`big${String(total - 1).padStart(5, '0')}`)).toMatchObject({
      title: `Article ${total - 1}`,
    });
    await moveStagedCards(db);
    expect(await db.card_pages.count()).toBe(0);
    await expectCountsMatchRows(db, total);
  });

  it('list, count and read by id as articles before a row is written, then move into rows', async () => {
    const db = openDb();
    const cards = await stagedLibrary(db);
    expect(await db.articles.count()).toBe(0);
    expect(await db.card_pages.count()).toBe(2);

    const list = await listed(db);
    expect(list.map((article) => article.id)).toEqual(cards.map((c) => c.id).reverse());
    expect((await pageArticles(db, LIST, 'newest', 10, 20)).total).toBe(150);
    expect(await db.articleCounts()).toMatchObject({ total: 150, tags: { garden: 50 } });
    expect(await articlesWithTag(db, 'garden')).toHaveLength(50);
    expect(await db.articles.get('a042')).toMatchObject({ id: 'a042', title: 'Article 42' });
    expect((await db.articles.bulkGet(['a001', 'nowhere', 'a120'])).map((row) => row?.id)).toEqual([
      'a001',
      undefined,
      'a120',
    ]);

    await moveStagedCards(db);
    expect(await hasStagedCards(db)).toBe(false);
    await expectCountsMatchRows(db, 150);
    expect((await listed(db)).map((article) => article.id)).toEqual(cards.map((c) => c.id).reverse());
    // Moved under a rev of their own, above the staging's: search and the offline images see them.
    const revs = new Set((await db.articles.toArray()).map((row) => row.rev));
    expect(revs.size).toBe(2);
    db.close();
  });

  it('keeps an edit and a delete made while staged, counted once, through the move', async () => {
    const db = openDb();
    await stagedLibrary(db);
    await db.transaction('rw', db.dataTables, async () => {
      const row = (await db.articles.get('a010'))!;
      await db.articles.put({
        ...row,
        is_read: true,
        tags: ['garden'],
        tag_keys: ['garden'],
        rev: row.rev + 1,
      });
      await deleteArticleLocally(db, 'a020');
    });
    expect(await db.articleCounts()).toMatchObject({ total: 149, unread: 148, tags: { garden: 51 } });
    expect(await db.articles.get('a020')).toBeUndefined();
    const list = await listed(db);
    expect(list).toHaveLength(149);
    expect(list.find((article) => article.id === 'a010')).toMatchObject({ is_read: true });
    // The tag's articles: the edited row (tagged now) with the staged cards tagged, the deleted one gone.
    const garden = (await articlesWithTag(db, 'garden')).map((article) => article.id);
    expect(garden).toHaveLength(51);
    expect(garden).toContain('a010');

    // Stopped after one page (a logout, a reload), then on again.
    let pages = 0;
    await moveStagedCards(db, () => pages++ > 0);
    expect(await hasStagedCards(db)).toBe(true);
    expect(await listed(db)).toHaveLength(149);
    await moveStagedCards(db);
    await expectCountsMatchRows(db, 149);
    expect(await db.articles.get('a010')).toMatchObject({ is_read: true, tags: ['garden'] });
    expect(await db.articles.get('a020')).toBeUndefined();
    db.close();
  });

  it('takes a card staged again by a later page (changed during the sync) from that page', async () => {
    const db = openDb();
    await stagedLibrary(db);
    const changed = card(5, { title: 'Renamed on the server', is_archived: true });
    await applyChanges(db, upserts([changed], 200), 200, { stageCards: true });
    expect(await db.articleCounts()).toMatchObject({ total: 150, archived: 1 });
    expect(await listed(db)).toHaveLength(149);
    expect(await db.articles.get('a005')).toMatchObject({ title: 'Renamed on the server' });
    await moveStagedCards(db);
    await expectCountsMatchRows(db, 150);
    expect(await db.articles.get('a005')).toMatchObject({
      title: 'Renamed on the server',
      is_archived: true,
    });
    db.close();
  });

  it('writes the cards of articles already moved as rows, as a sync after a reload would', async () => {
    const db = openDb();
    await stagedLibrary(db);
    await moveStagedCards(db);
    await applyChanges(db, upserts([card(7, { is_favorite: true })], 300), 300, { stageCards: true });
    expect(await hasStagedCards(db)).toBe(false);
    expect(await db.articles.get('a007')).toMatchObject({ is_favorite: true });
    await expectCountsMatchRows(db, 150);
    db.close();
  });

  it('keep a followed list up to date as pages are staged, edited and moved', async () => {
    const db = openDb();
    await db.open();
    const totals: number[] = [];
    const subscription = liveQuery(() =>
      pageArticles(db, { archived: false, is_read: false }, 'newest', 0, 24),
    ).subscribe({
      next: (page) => totals.push(page.total),
    });
    await expect.poll(() => totals.at(-1), LIVE_ANSWER).toBe(0);
    await stagedLibrary(db);
    await expect.poll(() => totals.at(-1), LIVE_ANSWER).toBe(150);
    await db.transaction('rw', db.dataTables, async () => {
      const row = (await db.articles.get('a149'))!;
      await db.articles.put({ ...row, is_read: true, rev: row.rev + 1 });
    });
    await expect.poll(() => totals.at(-1), LIVE_ANSWER).toBe(149);
    await moveStagedCards(db);
    await expect.poll(async () => (await hasStagedCards(db)) && totals.at(-1), LIVE_ANSWER).toBe(false);
    expect(totals.at(-1)).toBe(149);
    subscription.unsubscribe();
    db.close();
  });

  it('are found by search before the move, the words of a body stored meanwhile too, and kept in the saved index', async () => {
    const db = openDb();
    await rememberReader(db);
    await stagedLibrary(db);
    const search = createArticleSearch(db, { pause: async () => {} });
    const found = async (q: string) => (await searchArticles(db, search, q)).articles.map((a) => a.id);
    expect(await found('article 42')).toEqual(['a042']);
    // Bodies come for staged cards (offline/body-downloads.ts) before their move.
    await storeBodies(db, [{ id: 'a017', content: '<p>Rhubarb compote</p>' }]);
    expect(await found('rhubarb')).toEqual(['a017']);
    await search.flush();
    const reread = createArticleSearch(db, { pause: async () => {} });
    expect(await searchArticles(db, reread, 'rhubarb')).toMatchObject({ articles: [{ id: 'a017' }] });
    expect(reread.stats).toMatchObject({ loadedFromSnapshot: 1 });
    // Moved into rows: the same answers, nothing indexed twice.
    await moveStagedCards(db);
    expect(await found('rhubarb')).toEqual(['a017']);
    expect(await found('article 149')).toEqual(['a149']);
    db.close();
  });

  it('empties with the rest of the data at logout', async () => {
    const db = openDb();
    await stagedLibrary(db);
    await db.wipe();
    expect(await hasStagedCards(db)).toBe(false);
    expect(await db.articleCounts()).toMatchObject({ total: 0 });
    expect(await listed(db)).toEqual([]);
    db.close();
  });
});
