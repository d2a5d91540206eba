// The library newest first, kept from one change to the next by merging in only what changed, is exactly
// the library sorted again from scratch after every kind of change: rows written, saved again (to the top),
// deleted, a first sync's cards staged, replaced by a later page, and moved into rows.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { compareNewestFirst, type ArticleSummary } from '@lectern/shared-schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LecternDb } from '../db/lectern-db';
import { nextRev, toArticleRow } from '../db/local-store';
import type { ArticleRow } from '../db/rows';
import { moveStagedCards, stageCards, stagedCards } from '../db/staged-cards';
import { articleSummary } from '../testing/article-summary';
import { articleView } from './article-view';
import { articleRows } from './row-cache';

/** A seeded generator: every run sees the same changes. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const next = random(42);
let made = 0;

/** An article saved on one of few days (ties broken by id, as the lists break them). */
function article(fields: Partial<ArticleSummary> = {}): ArticleSummary {
  made += 1;
  const day = String(1 + Math.floor(next() * 20)).padStart(2, '0');
  return articleSummary(`article-${String(Math.floor(next() * 1e6)).padStart(6, '0')}-${made}`, {
    created_at: `2026-02-${day}T10:00:00.000Z`,
    ...fields,
  });
}

let db: LecternDb;

beforeEach(() => {
  db = new LecternDb(`article-view-${Date.now()}-${Math.random()}`, {
    indexedDB: new IDBFactory(),
    IDBKeyRange,
  });
});

afterEach(() => db.close());

async function writeRows(articles: readonly ArticleSummary[]): Promise<void> {
  await db.transaction('rw', [db.articles, db.meta, db.article_counts], async () => {
    const rev = await nextRev(db);
    await db.articles.bulkPut(articles.map((summary) => toArticleRow(summary, rev)));
  });
}

async function stage(cards: readonly ArticleSummary[]): Promise<void> {
  await db.transaction('rw', [...db.dataTables, db.article_counts], async () => {
    await stageCards(db, cards);
  });
}

/** The view's order, and the order of every article (rows, then staged cards without a row) sorted anew. */
async function orders(): Promise<{ kept: string[]; sorted: string[] }> {
  const view = await articleView(db);
  const [rows, staged] = await Promise.all([articleRows(db), stagedCards(db)]);
  const all: ArticleRow[] = [...rows.values()];
  for (const [id, card] of staged ?? []) if (!rows.has(id)) all.push(card);
  return {
    kept: view.newestFirst.map((row) => row.id),
    sorted: all.sort(compareNewestFirst).map((row) => row.id),
  };
}

async function expectSortedAnew(size: number): Promise<void> {
  const { kept, sorted } = await orders();
  expect(kept).toHaveLength(size);
  expect(kept).toEqual(sorted);
}

describe('the library newest first, kept between changes', () => {
  it('is the library sorted anew after rows are written, saved again, changed and deleted', async () => {
    const library = Array.from({ length: 300 }, () => article());
    await writeRows(library);
    await expectSortedAnew(300);

    // A few new saves, on days among the others'.
    const added = Array.from({ length: 12 }, () => article());
    await writeRows(added);
    await expectSortedAnew(312);

    // Saved again: back to the top of the list.
    await writeRows(library.slice(0, 5).map((a) => ({ ...a, created_at: '2026-03-01T10:00:00.000Z' })));
    await expectSortedAnew(312);

    // A flag changed: a new row object in the same place.
    await writeRows(library.slice(40, 60).map((a) => ({ ...a, is_favorite: true })));
    await expectSortedAnew(312);
    expect((await articleView(db)).newestFirst.filter((row) => row.is_favorite)).toHaveLength(20);

    // Deleted, some of them changed in the same moment as others were deleted.
    await db.articles.bulkDelete(library.slice(100, 130).map((a) => a.id));
    await writeRows(added.slice(0, 3).map((a) => ({ ...a, title: 'Renamed' })));
    await expectSortedAnew(282);

    // Most of the library changed at once: sorted anew, the same.
    await writeRows(library.slice(130).map((a) => ({ ...a, created_at: '2026-01-15T10:00:00.000Z' })));
    await expectSortedAnew(282);
  });

  it("is the library sorted anew while a first sync's cards are staged, replaced and moved into rows", async () => {
    // The device's own saves before the first sync's cards.
    const own = Array.from({ length: 8 }, () => article());
    await writeRows(own);
    await expectSortedAnew(8);

    const pages = Array.from({ length: 4 }, () => Array.from({ length: 60 }, () => article()));
    for (const [i, page] of pages.entries()) {
      await stage(page);
      await expectSortedAnew(8 + 60 * (i + 1));
    }

    // A later page brings a newer version of cards an earlier page staged (the article changed meanwhile).
    await stage(pages[0]!.slice(0, 10).map((a) => ({ ...a, created_at: '2026-03-02T10:00:00.000Z' })));
    await expectSortedAnew(248);

    // The reader writes one staged article: its row wins over its card.
    await writeRows([{ ...pages[2]![5]!, title: 'Edited' }]);
    await expectSortedAnew(248);
    expect((await articleView(db)).newestFirst.find((row) => row.id === pages[2]![5]!.id)?.title).toBe(
      'Edited',
    );

    await moveStagedCards(db);
    expect(await stagedCards(db)).toBeNull();
    await expectSortedAnew(248);
  });
});
