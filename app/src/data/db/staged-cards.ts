// A new device's first sync lists the whole library within a couple of seconds: each page of cards the feed
// answers is stored as rows of `card_pages`, STAGED_PAGE_CARDS cards a row (one IndexedDB write for
// thousands of cards, where a thousand article rows with their index keys take the better part of a second).
// The cards are moved into `articles` by the offline library once their bodies are in
// (offline/offline-library.ts: the move and the bodies write the same stores, and the bodies are what the
// reader waits for), a slice per transaction, while the reader already scrolls, opens and searches them.
//
// Until its page is moved, a staged card is an article like any other to whoever asks:
// - a read by id (`get`, `getMany`: the article screen, the repository's edits) falls back to it, in every
//   transaction over `articles` (the middleware below adds `card_pages` to their scope);
// - the library's counts include it from the moment it is staged (stageCards), and an edit or a delete of it
//   counts against it (the counts middleware reads the row it replaces through the fallback);
// - a delete takes it out of its page; an edit writes its article row, which from then on is the article
//   (the row in `articles` always wins over a staged card, and the move leaves such a card behind);
// - the dashboard's lists read the library in memory while cards are staged (reads/article-view.ts merges
//   them in), since the list keys' index only knows `articles`;
// - search indexes it from memory (search/article-search.ts), and the bodies' walk goes through the staged
//   cards with the rows (offline/body-downloads.ts).
import Dexie, { type DBCore, type DBCoreTransaction, type Middleware } from 'dexie';
import { compareNewestFirst, type ArticleSummary } from '@lectern/shared-schema';
import { ARTICLE_COUNTS_KEY, countArticle, countsOf } from './article-counts';
import { ANY_KEY, holdsStore } from './dbcore';
import type { LecternDb } from './lectern-db';
import { createIdsWrittenSince, rowsByRev } from './ids-written-since';
import { nextRev, putArticleRows, toArticleRow } from './local-store';
import { yieldToUi } from '../offline/yield-to-ui';
import { markSync } from '../sync/sync-marks';
import type { ArticleCountsRow, ArticleRow, CardPageIdsRow, CardPageRow } from './rows';

export const CARD_PAGES_TABLE = 'card_pages';
/** The ids of each staged page's cards, under the page's key. */
const CARD_PAGE_IDS_TABLE = 'card_page_ids';
const ARTICLES_TABLE = 'articles';
/**
 * Cards moved into rows by one transaction: about 100 ms of IndexedDB's time, so the bodies' writes (which
 * wait for it) come in between.
 */
const MOVE_SLICE = 250;
/** Cards in one staged row: about 60 ms of the page's thread to make ready and copy for IndexedDB. */
export const STAGED_PAGE_CARDS = 2500;

/** The transactions moving cards into `articles`: the fallback to staged cards is off in them. */
const movingTransactions = new WeakSet<object>();

/** Whether `trans` moves staged cards into rows: every row it writes is new (db/article-counts.ts). */
export function isMovingCards(trans: DBCoreTransaction): boolean {
  return movingTransactions.has(trans);
}

// The functions below run inside Dexie's middleware stack: they chain Dexie's own promises (never an async
// function's), so the transaction's zone, which Dexie's middlewares below read, carries on after them.

/** Whether any card is staged, read in `trans` (which holds `card_pages`). */
export function anyStaged(down: DBCore, trans: DBCoreTransaction): PromiseLike<boolean> {
  if (!holdsStore(trans, CARD_PAGES_TABLE)) return Dexie.Promise.resolve(false);
  const pages = down.table(CARD_PAGES_TABLE);
  return pages
    .count({ trans, query: { index: pages.schema.primaryKey, range: ANY_KEY } })
    .then((count) => count > 0);
}

/**
 * Every staged page holding one of `ids`, each once, by key; none read when nothing is staged. The pages'
 * ids are read (a few dozen small rows), then only the pages holding one of them.
 */
function pagesHoldingAny(
  down: DBCore,
  trans: DBCoreTransaction,
  ids: readonly string[],
): PromiseLike<Map<number, CardPageRow>> {
  return anyStaged(down, trans).then((staged) => {
    if (!staged) return new Map<number, CardPageRow>();
    const pageIds = down.table(CARD_PAGE_IDS_TABLE);
    const wanted = new Set(ids);
    return pageIds
      .query({ trans, values: true, query: { index: pageIds.schema.primaryKey, range: ANY_KEY } })
      .then((all) => {
        const keys = (all.result as CardPageIdsRow[])
          .filter((row) => row.ids.some((id) => wanted.has(id)))
          .map((row) => row.key);
        if (keys.length === 0) return [];
        return down.table(CARD_PAGES_TABLE).getMany({ trans, keys });
      })
      .then((pages) => {
        const byKey = new Map<number, CardPageRow>();
        for (const page of pages as (CardPageRow | undefined)[]) if (page) byKey.set(page.key!, page);
        return byKey;
      });
  });
}

/** The staged cards among `ids` that have no article row, for the fallback of reads by id. */
function stagedCardsOf(
  down: DBCore,
  trans: DBCoreTransaction,
  ids: readonly string[],
): PromiseLike<Map<string, ArticleRow>> {
  if (ids.length === 0 || movingTransactions.has(trans) || rowsOnlyTransactions.has(trans))
    return Dexie.Promise.resolve(new Map());
  return pagesHoldingAny(down, trans, ids).then((pages) => {
    const wanted = new Set(ids);
    const cards = new Map<string, ArticleRow>();
    for (const page of pages.values())
      for (const row of page.rows) if (wanted.has(row.id)) cards.set(row.id, row);
    return cards;
  });
}

/** Takes `ids` out of the pages staging them (a page left empty is removed). Answers the cards taken out. */
function unstage(down: DBCore, trans: DBCoreTransaction, ids: readonly string[]): PromiseLike<ArticleRow[]> {
  if (ids.length === 0) return Dexie.Promise.resolve([]);
  return pagesHoldingAny(down, trans, ids).then((touched) => {
    const pages = down.table(CARD_PAGES_TABLE);
    const pageIds = down.table(CARD_PAGE_IDS_TABLE);
    const gone = new Set(ids);
    const removed: ArticleRow[] = [];
    const writes: PromiseLike<unknown>[] = [];
    for (const page of touched.values()) {
      const rows = page.rows.filter((row) => {
        if (!gone.has(row.id)) return true;
        removed.push(row);
        return false;
      });
      // A page changed gets a new key: what a reader kept of the old one is known to be stale by its key.
      writes.push(pages.mutate({ type: 'delete', trans, keys: [page.key] }));
      writes.push(pageIds.mutate({ type: 'delete', trans, keys: [page.key] }));
      if (rows.length > 0) {
        const { key: _key, ...rest } = page;
        writes.push(
          pages.mutate({ type: 'add', trans, values: [{ ...rest, rows }] }).then(({ results }) =>
            pageIds.mutate({
              type: 'put',
              trans,
              values: [{ key: results![0] as number, ids: rows.map((row) => row.id) }],
            }),
          ),
        );
      }
    }
    return Dexie.Promise.all(writes).then(() => removed);
  });
}

/**
 * Staged cards answer reads by id where `articles` has no row, and leave their page when their article is
 * deleted. Below the counts' middleware (a lower level), so the counts see a staged card as the row an
 * edit or a delete replaces.
 */
export const stagedCardsMiddleware: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'StagedCards',
  level: 5,
  create(down) {
    return {
      ...down,
      transaction(stores, mode, options) {
        const withPages =
          stores.includes(ARTICLES_TABLE) || stores.includes(CARD_PAGES_TABLE)
            ? [...new Set([...stores, CARD_PAGES_TABLE, CARD_PAGE_IDS_TABLE])]
            : stores;
        return down.transaction(withPages, mode, options);
      },
      table(name) {
        const table = down.table(name);
        if (name !== ARTICLES_TABLE) return table;
        return {
          ...table,
          get(req) {
            return table
              .get(req)
              .then((row: unknown) =>
                row !== undefined
                  ? row
                  : stagedCardsOf(down, req.trans, [req.key as string]).then((cards) =>
                      cards.get(req.key as string),
                    ),
              );
          },
          getMany(req) {
            return table.getMany(req).then((rows) => {
              const missing = req.keys.filter((_, i) => rows[i] === undefined) as string[];
              if (missing.length === 0) return rows;
              return stagedCardsOf(down, req.trans, missing).then((cards) =>
                rows.map((row, i) => row ?? cards.get(req.keys[i] as string)),
              );
            });
          },
          mutate(req) {
            return table
              .mutate(req)
              .then((response) =>
                req.type === 'delete' && !movingTransactions.has(req.trans)
                  ? unstage(down, req.trans, req.keys as string[]).then(() => response)
                  : response,
              );
          },
        };
      },
    };
  },
};

/** The stored counts, changed by `change`, in the current transaction (which must hold `article_counts`). */
async function changeCounts(db: LecternDb, change: (counts: Omit<ArticleCountsRow, 'key'>) => void) {
  const counts = countsOf(await db.article_counts.get(ARTICLE_COUNTS_KEY));
  change(counts);
  await db.article_counts.put({ ...counts, key: ARTICLE_COUNTS_KEY });
}

/**
 * Stages the cards of one page of a first sync, in the caller's transaction (over `db.dataTables` and
 * `article_counts`): a card whose article already has a row (a reload after part of the library was
 * moved, or the device's own save) is left to the caller to write as usual; a card staged by an earlier
 * page is replaced by this one. Answers the cards left to the caller.
 */
export async function stageCards(db: LecternDb, cards: readonly ArticleSummary[]): Promise<ArticleSummary[]> {
  if (cards.length === 0) return [];
  const ids = cards.map((card) => card.id);
  // A new device has no article row yet: nothing to look up (a thousand keys' lookup costs).
  const empty = (await db.articles.count()) === 0;
  const present = new Set(empty ? [] : await db.articles.where(':id').anyOf(ids).primaryKeys());
  const staged = cards.filter((card) => !present.has(card.id));
  if (staged.length > 0) {
    // Cards a page staged earlier (the article changed during the sync): found among the staged cards
    // this tab holds in memory (read again when another tab staged pages), not looked up one by one.
    const earlier = await stagedCards(db);
    const again = earlier ? ids.filter((id) => earlier.has(id)) : [];
    const trans = Dexie.currentTransaction as unknown as { idbtrans: IDBTransaction };
    const replaced = await unstage(db.core, trans.idbtrans as unknown as DBCoreTransaction, again);
    const rev = await nextRev(db);
    const rows: ArticleRow[] = [];
    // A row of STAGED_PAGE_CARDS at most, each made and added once the one before is: a feed's page of
    // five thousand cards, made ready and copied for IndexedDB at once, held the page's thread for 100 ms
    // (in rows of a thousand, their round trips added 0.1 s to the first list).
    const idsWritten: Promise<unknown>[] = [];
    for (let at = 0; at < staged.length; at += STAGED_PAGE_CARDS) {
      const pageRows = staged.slice(at, at + STAGED_PAGE_CARDS).map((card) => toArticleRow(card, rev));
      rows.push(...pageRows);
      const key = await db.card_pages.add({ rows: pageRows });
      // Not waited for before the next row is made ready: IndexedDB writes the two in turn.
      idsWritten.push(db.card_page_ids.add({ key, ids: pageRows.map((row) => row.id) }));
      // This tab has the page's cards at hand: the lists don't read them back once it is written.
      Dexie.currentTransaction!.on('complete', () => keptPage(db, key, pageRows));
    }
    await Promise.all(idsWritten);
    await changeCounts(db, (counts) => {
      for (const row of replaced) countArticle(counts, row, -1);
      for (const row of rows) countArticle(counts, row, 1);
    });
  }
  return cards.filter((card) => present.has(card.id));
}

/** The move under way in this tab, per database: a sync starting meanwhile joins it. */
const moves = new WeakMap<LecternDb, Promise<void>>();

/**
 * Moves every staged page into `articles`, oldest first, MOVE_SLICE cards a transaction under a new rev (search
 * and the offline images follow rows by rev). A card whose article was written meanwhile stays behind:
 * that row is newer, and its write already counted it. Stops between pages when `shouldStop` says so.
 * One move at a time: a call while one is under way answers when that one ends.
 */
export function moveStagedCards(db: LecternDb, shouldStop: () => boolean = () => false): Promise<void> {
  let move = moves.get(db);
  if (!move) {
    markSync('move', 'start');
    move = movePages(db, shouldStop).finally(() => {
      markSync('move', 'end');
      moves.delete(db);
    });
    moves.set(db, move);
  }
  return move;
}

async function movePages(db: LecternDb, shouldStop: () => boolean): Promise<void> {
  // The rows written since a page was staged, read on from one slice to the next (the slices moved before
  // are among them), not walked whole each slice.
  const writtenSince = createIdsWrittenSince(db, rowsByRev(db.articles));
  for (;;) {
    // The lists are already on screen: each slice waits for the page to be idle (a frame, a tap first).
    await yieldToUi();
    if (shouldStop()) return;
    const moved = await db.transaction(
      'rw',
      [db.articles, db.card_pages, db.card_page_ids, db.article_counts, db.meta],
      async () => {
        movingTransactions.add(Dexie.currentTransaction!.idbtrans);
        const [key] = await db.card_page_ids.orderBy(':id').limit(1).primaryKeys();
        if (key === undefined) return false;
        const rows = await notWrittenSince(await pageCards(db, key), writtenSince);
        const slice = rows.slice(0, MOVE_SLICE);
        if (slice.length > 0) {
          const rev = await nextRev(db);
          // Counted when staged: the write below counts them again.
          await changeCounts(db, (counts) => {
            for (const row of slice) countArticle(counts, row, -1);
          });
          await putArticleRows(
            db,
            slice.map((row) => ({ ...row, rev })),
          );
        }
        // The page goes with its last slice; until then its moved cards are rows too, and rows win.
        if (rows.length <= MOVE_SLICE)
          await Promise.all([db.card_pages.delete(key), db.card_page_ids.delete(key)]);
        return true;
      },
    );
    if (!moved) return;
  }
}

/** A staged page's cards: kept in memory by this tab (a thousand cards: a megabyte to decode), else read. */
async function pageCards(db: LecternDb, key: number): Promise<readonly ArticleRow[]> {
  const kept = keptPages.get(db)?.pages.get(key);
  if (kept) return kept;
  const rows = (await db.card_pages.get(key))?.rows ?? [];
  keptPage(db, key, rows);
  return rows;
}

/**
 * The cards of a page whose article has no row. A row for a staged card can only have been written after
 * the card was staged (stageCards leaves out cards that have one), so under a higher rev than the page's:
 * the ids of the rows above it (the rows moved before, and the few written by the reader meanwhile) rather
 * than a lookup per card, which costs a round trip each. `writtenSince` may answer more ids than those
 * (rows written before the page): none of them is a card of the page.
 */
async function notWrittenSince(
  cards: readonly ArticleRow[],
  writtenSince: (rev: number) => Promise<Set<string>>,
): Promise<ArticleRow[]> {
  if (cards.length === 0) return [];
  let stagedRev = Infinity;
  for (const card of cards) stagedRev = Math.min(stagedRev, card.rev);
  const written = await writtenSince(stagedRev);
  return cards.filter((card) => !written.has(card.id));
}

/**
 * The stores a transaction reading staged cards holds: the pages, and their ids. Which pages there are is
 * read from the ids (`card_page_ids`), never from the pages themselves: Chromium's on-disk IndexedDB reads
 * every record a count or a walk of keys passes, and a page of a thousand cards is a megabyte, read again
 * for each count where the ids' row is a thirtieth of it.
 */
export function stagedTables(db: LecternDb) {
  return [db.card_pages, db.card_page_ids];
}

/** Whether a first sync's cards are staged: one count, read through Dexie (live queries follow it). */
export function hasStagedCards(db: LecternDb): PromiseLike<boolean> {
  // Dexie's own promise, not an async function's: a live query reading it goes on following what it reads.
  // Counted among the pages' ids (stagedTables), not the pages.
  return db.card_page_ids.count().then((count) => {
    // Every card moved: the ones this tab kept in memory go.
    if (count === 0) keptPages.delete(db);
    return count > 0;
  });
}

/**
 * Which of `ids` are staged cards, read from the pages' ids alone (a few rows of ids, no card): in a
 * transaction holding stagedTables, what it holds then.
 */
export async function stagedAmong(db: LecternDb, ids: readonly string[]): Promise<Set<string>> {
  const wanted = new Set(ids);
  const found = new Set<string>();
  for (const page of await db.card_page_ids.toArray())
    for (const id of page.ids) if (wanted.has(id)) found.add(id);
  return found;
}

/** Every staged card, by id, as the dashboard's lists read them while some are staged; null when none are. */
export async function stagedCards(db: LecternDb): Promise<ReadonlyMap<string, ArticleRow> | null> {
  const keys = await db.card_page_ids.toCollection().primaryKeys();
  if (keys.length === 0) {
    keptPages.delete(db);
    return null;
  }
  let kept = keptPages.get(db);
  if (!kept) keptPages.set(db, (kept = { signature: '', pages: new Map(), cards: new Map() }));
  const signature = keys.join(',');
  if (kept.signature === signature) return kept.cards;
  const wanted = keys.filter((key) => !kept.pages.has(key));
  const read = await db.card_pages.bulkGet(wanted);
  const pages = new Map<number, readonly ArticleRow[]>();
  for (const key of keys) {
    const rows = kept.pages.get(key) ?? read[wanted.indexOf(key)]?.rows;
    if (rows) pages.set(key, rows);
  }
  const cards = new Map<string, ArticleRow>();
  for (const rows of pages.values()) for (const row of rows) cards.set(row.id, row);
  keptPages.set(db, { signature, pages, cards });
  pagesOf.set(cards, [...pages.values()]);
  return cards;
}

/** The pages each answer of stagedCards was made of. */
const pagesOf = new WeakMap<ReadonlyMap<string, ArticleRow>, readonly (readonly ArticleRow[])[]>();

/** Transactions reading rows only: the fallback to staged cards is off in them (rowsOrStagedCards). */
const rowsOnlyTransactions = new WeakSet<object>();

/**
 * The article of each id: its row, else its staged card, taken from the staged cards this tab holds in
 * memory rather than looked up page by page (for many ids the fallback of `bulkGet` reads every page). The
 * rows and the staged cards are read side by side, in the caller's read-only transaction when it holds
 * both stores (from then on its reads by id find rows only), else in a transaction of their own.
 * `stagedRead`: the staged cards the caller read already in that transaction (not read again).
 */
export function rowsOrStagedCards(
  db: LecternDb,
  ids: readonly string[],
  stagedRead?: ReturnType<typeof stagedCards>,
): Promise<(ArticleRow | undefined)[]> {
  const read = async (known?: ReturnType<typeof stagedCards>) => {
    rowsOnlyTransactions.add(Dexie.currentTransaction!.idbtrans);
    const [rows, staged] = await Promise.all([db.articles.bulkGet([...ids]), known ?? stagedCards(db)]);
    return staged ? rows.map((row, i) => row ?? staged.get(ids[i]!)) : rows;
  };
  const current = Dexie.currentTransaction;
  const inCallers =
    current?.mode === 'readonly' &&
    current.storeNames.includes(db.articles.name) &&
    current.storeNames.includes(CARD_PAGES_TABLE) &&
    current.storeNames.includes(CARD_PAGE_IDS_TABLE);
  return inCallers
    ? read(stagedRead)
    : Dexie.ignoreTransaction(() => db.transaction('r', [db.articles, ...stagedTables(db)], () => read()));
}

/**
 * Every staged card, newest first (the dashboard's order): null when none are. Made once for each set of
 * staged pages (a page staged or moved changes it), by merging the pages, each sorted once: sorting ten
 * thousand cards again after each page held the page's thread for tens of milliseconds.
 */
export async function stagedNewestFirst(db: LecternDb): Promise<readonly ArticleRow[] | null> {
  const cards = await stagedCards(db);
  if (!cards) return null;
  let sorted = sortedCards.get(cards);
  if (!sorted) {
    const merged = mergeNewestFirst((pagesOf.get(cards) ?? []).map(pageNewestFirst));
    // A card in two pages (never, as staging takes it out of the first) would be there twice: sorted whole.
    sorted = merged.length === cards.size ? merged : [...cards.values()].sort(compareNewestFirst);
    sortedCards.set(cards, sorted);
  }
  return sorted;
}

const sortedCards = new WeakMap<ReadonlyMap<string, ArticleRow>, readonly ArticleRow[]>();

/** A page's cards newest first, sorted once (a page never changes under its key). */
function pageNewestFirst(rows: readonly ArticleRow[]): readonly ArticleRow[] {
  let sorted = sortedPages.get(rows);
  if (!sorted) sortedPages.set(rows, (sorted = [...rows].sort(compareNewestFirst)));
  return sorted;
}

const sortedPages = new WeakMap<readonly ArticleRow[], readonly ArticleRow[]>();

/** Lists each newest first, merged into one newest first: two at a time, in rounds. */
export function mergeNewestFirst(lists: readonly (readonly ArticleRow[])[]): ArticleRow[] {
  let round = lists;
  while (round.length > 1) {
    const next: (readonly ArticleRow[])[] = [];
    for (let i = 0; i < round.length; i += 2)
      next.push(i + 1 < round.length ? mergeTwo(round[i]!, round[i + 1]!) : round[i]!);
    round = next;
  }
  return [...(round[0] ?? [])];
}

function mergeTwo(a: readonly ArticleRow[], b: readonly ArticleRow[]): ArticleRow[] {
  const merged: ArticleRow[] = new Array<ArticleRow>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length)
    merged[k++] = compareNewestFirst(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) merged[k++] = a[i++]!;
  while (j < b.length) merged[k++] = b[j++]!;
  return merged;
}

/** Keeps a page this tab wrote, for stagedCards. */
function keptPage(db: LecternDb, key: number, rows: readonly ArticleRow[]): void {
  let kept = keptPages.get(db);
  if (!kept) keptPages.set(db, (kept = { signature: '', pages: new Map(), cards: new Map() }));
  kept.pages.set(key, rows);
}

/** The pages read last (a page never changes under its key), and the cards they hold. */
const keptPages = new WeakMap<
  LecternDb,
  { signature: string; pages: Map<number, readonly ArticleRow[]>; cards: Map<string, ArticleRow> }
>();
