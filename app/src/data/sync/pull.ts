// Pulls the change feed from the stored cursor to its end, one page per transaction, each page read as it
// streams in (feed-page.ts), the next one asked for while one is stored, and the page given back between
// two pages (a first sync's first page may have been asked for already, as the sign-in answered). A device
// that starts from nothing pulls the feed as cards, articles without their body, so it lists the whole
// library at once; the bodies follow (offline/body-downloads.ts), newest first. A reload in the middle goes
// on pulling cards.
import { CARDS_MAX_LIMIT, CHANGES_MAX_LIMIT, type Change } from '@lectern/shared-schema';
import type { HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import { yieldTask } from '../offline/yield-to-ui';
import { hasStagedCards } from '../db/staged-cards';
import { applyChanges } from './apply-changes';
import { readFeedPage, type PendingFeedPage } from './feed-page';
import { paceLiveReads } from './first-sync-pace';
import { rereadEverything } from './page-restore';
import { markSync } from './sync-marks';

const articleCards = (changes: readonly Change[]) =>
  changes.filter((change) => change.entity === 'article' && change.op === 'upsert').length;

/**
 * From this many cards a page, a first sync stages them (db/staged-cards.ts): a large library is listed
 * at once; a small page is written as rows straight away, as fast, with no in-memory listing meanwhile
 * (unless cards are staged already: then it joins them).
 */
const STAGED_FROM_CARDS = 250;

/** Where a pull starts: the stored cursor, and whether it pulls cards (a first sync, or one resumed). */
export interface PullStart {
  since: number;
  cards: boolean;
  /** Whether the device already knows it is pulling cards (a reload in the middle of a first sync). */
  cardsMarked: boolean;
}

/** Reads where the next pull starts, in one transaction. */
export async function readPullStart(db: LecternDb): Promise<PullStart> {
  const [stored, cardsMarked, articleCount] = await db.transaction('r', [db.meta, db.articles], () =>
    Promise.all([db.getMeta('cursor'), db.getMeta('cardsPull'), db.articles.count()]),
  );
  const since = stored ?? 0;
  // From nothing: a device that already holds articles (its own saves on a new account) pulls them whole.
  const cards = cardsMarked === true || (since === 0 && articleCount === 0);
  return { since, cards, cardsMarked: cardsMarked === true };
}

/** One page of the feed from `since`, read as it streams in. */
export function requestFeedPage(
  http: HttpClient,
  since: number,
  limit: number,
  cards: boolean,
): PendingFeedPage {
  return readFeedPage(
    http.send('GET', '/sync/changes', { query: { since, limit, ...(cards ? { cards: true } : {}) } }),
  );
}

/** How many changes a pull asks for in a page. */
export interface PullLimits {
  /** A page of changes with their bodies (the server also stops a page at about a megabyte). */
  changes: number;
  /**
   * The first page of a first sync's cards: a small one, so the first cards are on screen at once (a first
   * page of 5,000 kept the dashboard saying the library was empty for a second).
   */
  firstCards: number;
  /**
   * Every later page of cards: a card is a kilobyte, and each page costs the device a transaction and a
   * run of the screens' reads besides its cards, so a few large pages list a large library sooner (10,000
   * cards in 12 pages: 2.3 to 2.5 s after the submit; in 3 or 4: 2.0 to 2.3).
   */
  cards: number;
}

export const PULL_LIMITS: PullLimits = {
  changes: CHANGES_MAX_LIMIT,
  firstCards: CHANGES_MAX_LIMIT,
  cards: CARDS_MAX_LIMIT,
};

/** The limit of the page from `since`. */
export function pageLimit(limits: PullLimits, since: number, cards: boolean): number {
  if (!cards) return limits.changes;
  return since === 0 ? limits.firstCards : limits.cards;
}

/**
 * A first page of the feed asked for before the pull began (sync-engine.ts asks as a sign-in answers, so
 * it is on its way while the screens render): the pull takes it if it would ask for the same page.
 */
export interface EarlyPage extends Omit<PullStart, 'cardsMarked'> {
  limit: number;
  coming: PendingFeedPage;
}

/** Answers how many changes were applied. `limits` as a number: every page asks for that many. */
export async function pullChanges(
  http: HttpClient,
  db: LecternDb,
  limits: PullLimits | number = PULL_LIMITS,
  early: EarlyPage | null = null,
): Promise<number> {
  const limitsOf: PullLimits =
    typeof limits === 'number' ? { changes: limits, firstCards: limits, cards: limits } : limits;
  // Read together, in one transaction: the first page is asked for as soon as they are in.
  const start = await readPullStart(db);
  let since = start.since;
  const cards = start.cards;
  // A reload from here on goes on pulling cards (written once, not on every sync of the pull), written
  // while the first page is on its way.
  const marking = cards && !start.cardsMarked ? db.setMeta('cardsPull', true) : null;
  const request = (from: number) => requestFeedPage(http, from, pageLimit(limitsOf, from, cards), cards);
  const taken =
    early?.since === since && early.cards === cards && early.limit === pageLimit(limitsOf, since, cards);
  let applied = 0;
  let coming = taken ? early.coming : request(since);
  if (marking) await marking;
  /** Whether the last page was stored: a first sync that ends without it has its paced reads run again. */
  let lastStored = false;
  try {
    for (;;) {
      // The next page is asked for as soon as this one's head is read (the server writes the cursor
      // first), while this one streams in and is stored: the server's time and the device's overlap.
      const head = await coming.head;
      const more = head.hasMore && head.cursor !== since;
      const next = more ? request(head.cursor) : null;
      const page = await coming.page;
      // A first sync's pages only, for the benchmark's timeline: marks stay until the page closes.
      if (cards) markSync('page', 'start');
      // Nothing new (the usual answer to a sync): no write transaction over every data table, which would
      // hold up the dashboard's reads and wake every live query for nothing.
      const nothingNew = page.changes.length === 0 && page.cursor === since && !cards;
      const cardCount = cards ? articleCards(page.changes) : 0;
      // The small last page of a large first sync is staged too: written as rows, each card's counts would
      // look for the row it replaces among the staged pages, reading every one of them back.
      const stage = cardCount >= STAGED_FROM_CARDS || (cardCount > 0 && (await hasStagedCards(db)));
      // A first sync's screens run their live reads a few times a second, not after every page; the last
      // page shows in full at once.
      if (cards) paceLiveReads(db, more);
      if (!nothingNew)
        await applyChanges(db, page.changes, page.cursor, {
          // The end of the feed ends the first sync's cards; cards of articles mean bodies to fetch.
          ...(cards && !page.hasMore ? { cardsPull: false } : {}),
          ...(cardCount > 0 ? { bodiesWanted: true } : {}),
          ...(stage ? { stageCards: true } : {}),
        });
      if (cards) markSync('page', 'end');
      applied += page.changes.length;
      if (!more) {
        lastStored = true;
        return applied;
      }
      since = page.cursor;
      coming = next!;
      await yieldTask();
    }
  } finally {
    paceLiveReads(db, false);
    // Ended without its last page (an error): the live reads that answered an old result read again.
    if (cards && !lastStored) rereadEverything(db);
  }
}
