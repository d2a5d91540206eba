// Pulls the change feed from the stored cursor to its end, one page per transaction, each page read as it
// streams in (feed-page.ts), the next one asked for while one is stored, and the page given back between
// two pages. A device that starts from nothing
// pulls the feed as cards, articles without their body, so it lists the whole library at once; the bodies
// follow (offline/body-downloads.ts), newest first. A reload in the middle goes on pulling cards.
import { CHANGES_MAX_LIMIT, type Change } from '@lectern/shared-schema';
import type { HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import { yieldTask } from '../offline/yield-to-ui';
import { hasStagedCards } from '../db/staged-cards';
import { applyChanges } from './apply-changes';
import { readFeedPage } from './feed-page';
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

/** Answers how many changes were applied. */
export async function pullChanges(
  http: HttpClient,
  db: LecternDb,
  limit = CHANGES_MAX_LIMIT,
): Promise<number> {
  // Read together, in one transaction: the first page is asked for as soon as they are in.
  const [stored, cardsMarked, articleCount] = await db.transaction('r', [db.meta, db.articles], () =>
    Promise.all([db.getMeta('cursor'), db.getMeta('cardsPull'), db.articles.count()]),
  );
  let since = stored ?? 0;
  // From nothing: a device that already holds articles (its own saves on a new account) pulls them whole.
  const cards = cardsMarked === true || (since === 0 && articleCount === 0);
  // A reload from here on goes on pulling cards (written once, not on every sync of the pull), written
  // while the first page is on its way.
  const marking = cards && cardsMarked !== true ? db.setMeta('cardsPull', true) : null;
  const request = async (from: number) =>
    readFeedPage(
      await http.send('GET', '/sync/changes', {
        query: { since: from, limit, ...(cards ? { cards: true } : {}) },
      }),
    );
  let applied = 0;
  let coming = request(since);
  if (marking) {
    // Written before the first page is stored; if that write fails, the request is left unawaited.
    coming.catch(() => undefined);
    await marking;
  }
  /** Whether the last page was stored: a first sync that ends without it has its paced reads run again. */
  let lastStored = false;
  try {
    for (;;) {
      const page = await coming;
      // A first sync's pages only, for the benchmark's timeline: marks stay until the page closes.
      if (cards) markSync('page', 'start');
      // The next page is asked for while this one is stored: the server's time and the device's overlap.
      const more = page.hasMore && page.cursor !== since;
      if (more) {
        coming = request(page.cursor);
        // Left unawaited if storing this page fails: that failure is the one reported.
        coming.catch(() => undefined);
      }
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
      await yieldTask();
    }
  } finally {
    paceLiveReads(db, false);
    // Ended without its last page (an error): the live reads that answered an old result read again.
    if (cards && !lastStored) rereadEverything(db);
  }
}
