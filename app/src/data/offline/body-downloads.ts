// The bodies of articles that came as cards (a new device's first sync lists the whole library without
// them): fetched newest first, a batch at a time (POST /api/articles/bodies), each batch stored in its own
// small transaction, until every article has its body or the bodies downloaded fill the reader's budget
// (bodies that come with the feed, and ones opened, are kept whatever the budget). What still lacks a
// body is read from IndexedDB itself (an article without its `article_contents` row), so a reload or a
// lost connection just starts the walk again and fetches only what is missing; a body already on the
// device (the feed brought it, or it was opened) is never fetched nor written again.
import { BODIES_MAX_IDS, htmlToText, type BodiesResponse } from '@lectern/shared-schema';
import { ApiError, NetworkError, type HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import { bodySizeOf, nextRev } from '../db/local-store';
import type { ArticleContentRow, ArticleRow } from '../db/rows';
import type { DownloadOutcome } from './image-downloads';
import { yieldTask, yieldToUi } from './yield-to-ui';

/** Article rows read at a time, newest first: a small slice of the library, never all of it. */
const WALK_CHUNK = 400;
/** Body HTML turned into search text between two yields to the page. */
const TEXT_SLICE_CHARS = 256 * 1024;

export interface Body {
  id: string;
  content: string | null;
}

/** Asks the server for these bodies (at most BODIES_MAX_IDS): what it answered, and the ids it doesn't know. */
export async function fetchBodies(http: HttpClient, ids: readonly string[]): Promise<BodiesResponse> {
  return http.request<BodiesResponse>('POST', '/articles/bodies', { body: { ids }, cache: 'no-store' });
}

/** A fetched body with its text for search and what it takes on the device. */
export interface PreparedBody extends Body {
  text: string;
  size: number;
}

/** Makes each body's search text, a slice at a time with the page given back in between. */
export async function prepareBodies(bodies: readonly Body[]): Promise<PreparedBody[]> {
  const prepared: PreparedBody[] = [];
  let sinceYield = 0;
  for (const body of bodies) {
    const text = htmlToText(body.content);
    prepared.push({ ...body, text, size: bodySizeOf(body.content, text) });
    sinceYield += body.content?.length ?? 0;
    if (sinceYield > TEXT_SLICE_CHARS) {
      sinceYield = 0;
      await yieldTask();
    }
  }
  return prepared;
}

/**
 * Stores bodies of articles still on the device and still without one, in one small transaction, under a
 * new rev of their own: the article rows (what the dashboard lists) are not written. Answers the bytes
 * stored; with `count`, they are added to what the budget counts.
 */
export async function storeBodies(
  db: LecternDb,
  bodies: readonly PreparedBody[],
  count = false,
): Promise<number> {
  if (bodies.length === 0) return 0;
  return db.transaction('rw', [db.articles, db.article_contents, db.meta], async () => {
    const ids = bodies.map((body) => body.id);
    const [present, there] = await Promise.all([
      db.article_contents.where(':id').anyOf(ids).primaryKeys(),
      db.articles.where(':id').anyOf(ids).primaryKeys(),
    ]);
    const already = new Set(present);
    const onDevice = new Set(there);
    const rev = await nextRev(db);
    const contents: ArticleContentRow[] = [];
    let bytes = 0;
    for (const body of bodies) {
      // Deleted meanwhile, or the feed (or an earlier answer) brought it first: that one is as new.
      if (!onDevice.has(body.id) || already.has(body.id)) continue;
      already.add(body.id);
      contents.push({ id: body.id, content: body.content, text: body.text, rev });
      bytes += body.size;
    }
    await db.article_contents.bulkPut(contents);
    if (count && bytes > 0) await db.setMeta('bodyBytes', ((await db.getMeta('bodyBytes')) ?? 0) + bytes);
    return bytes;
  });
}

export interface BodyDownloadOptions {
  db: LecternDb;
  http: HttpClient;
  /** The bytes bodies may take (Infinity: everything). */
  limit: number;
  isOnline: () => boolean;
  shouldStop: () => boolean;
  /** Only the newest this many articles (the sync fetches the first screen's bodies itself). */
  newest?: number;
  /** After each stored batch (tests and the bench count them). */
  onBatch?: (stored: number) => void;
}

/** The next WALK_CHUNK articles, newest first, after the ones already walked (keyset: ties on created_at too). */
function createWalk(db: LecternDb) {
  let upper: string | null = null;
  let seenAtUpper = new Set<string>();
  return async function next(count: number): Promise<ArticleRow[]> {
    const from = upper;
    const seen = seenAtUpper;
    const collection =
      from === null
        ? db.articles.orderBy('created_at').reverse()
        : db.articles
            .where('created_at')
            .belowOrEqual(from)
            .reverse()
            .filter((row) => row.created_at !== from || !seen.has(row.id));
    const rows = await collection.limit(count).toArray();
    for (const row of rows) {
      if (row.created_at !== upper) {
        upper = row.created_at;
        seenAtUpper = new Set();
      }
      seenAtUpper.add(row.id);
    }
    return rows;
  };
}

function outcomeOf(error: unknown): DownloadOutcome {
  if (error instanceof ApiError && error.status === 401) return 'signedOut';
  if (error instanceof NetworkError) return 'offline';
  return 'retryLater';
}

/** Fetches and stores the missing bodies among `rows` (newest first) within the budget left. */
async function fillChunk(
  options: BodyDownloadOptions,
  rows: readonly ArticleRow[],
  budget: { used: number },
): Promise<DownloadOutcome | null> {
  const { db, http, limit } = options;
  const present = new Set(
    await db.article_contents
      .where(':id')
      .anyOf(rows.map((row) => row.id))
      .primaryKeys(),
  );
  let missing = rows.map((row) => row.id).filter((id) => !present.has(id));
  const ask = (ids: string[]) => {
    const answer = fetchBodies(http, ids.slice(0, BODIES_MAX_IDS));
    // Left unawaited when the walk stops first (the budget, a reload): nothing to report then.
    answer.catch(() => undefined);
    return answer;
  };
  if (missing.length === 0) return null;
  if (options.shouldStop()) return 'stopped';
  if (!http.hasToken()) return 'signedOut';
  if (!options.isOnline()) return 'offline';
  let coming: Promise<BodiesResponse> | null = ask(missing);
  // The batch being written while the next one is made ready: the page's work and IndexedDB's overlap.
  let storing: Promise<void> = Promise.resolve();
  try {
    while (coming) {
      let answer: BodiesResponse;
      try {
        answer = await coming;
      } catch (error) {
        return outcomeOf(error);
      }
      const answered = new Set([...answer.bodies.map((body) => body.id), ...answer.unknown]);
      // An id neither answered nor unknown was left for the next call (the answer was full).
      missing = missing.filter((id) => !answered.has(id));
      if (answer.bodies.length === 0 && answer.unknown.length === 0) return 'retryLater';
      // The next batch is on its way while this one is stored.
      coming = null;
      if (missing.length > 0) {
        if (options.shouldStop()) return 'stopped';
        if (!http.hasToken()) return 'signedOut';
        if (!options.isOnline()) return 'offline';
        coming = ask(missing);
      }
      // Newest first within the budget: the first body that doesn't fit stops the walk. The batch still
      // being written counts at its prepared size until it says what it stored.
      const fitting: PreparedBody[] = [];
      let over = false;
      let added = 0;
      for (const body of await prepareBodies(answer.bodies)) {
        if (limit !== Infinity && budget.used + added + body.size > limit) {
          over = true;
          break;
        }
        fitting.push(body);
        added += body.size;
      }
      await storing;
      budget.used += added;
      storing = storeBodies(db, fitting, true).then((stored) => {
        budget.used += stored - added;
        options.onBatch?.(fitting.length);
      });
      // Its failure is thrown where it is awaited (before the next batch, or at the end), not reported
      // as unhandled while the next batch is made ready.
      storing.catch(() => undefined);
      if (over) return 'budget';
      await yieldToUi();
    }
  } finally {
    // Whatever ends the walk, the batch being written is in (or its failure thrown) before it answers.
    await storing;
  }
  return null;
}

/**
 * Downloads the missing bodies, newest article first, until every article has one, the budget is full,
 * or the network or the session is gone; `bodiesWanted` is cleared only by a walk that found none missing.
 */
export async function downloadBodies(options: BodyDownloadOptions): Promise<DownloadOutcome> {
  const { db, limit } = options;
  if (!(await db.getMeta('bodiesWanted'))) return 'done';
  if (limit <= ((await db.getMeta('bodiesBudgetFull')) ?? -1)) return 'budget';
  const next = createWalk(db);
  const budget = { used: (await db.getMeta('bodyBytes')) ?? 0 };
  let walked = 0;
  for (;;) {
    if (options.shouldStop()) return 'stopped';
    const rows = await next(Math.min(WALK_CHUNK, (options.newest ?? Infinity) - walked));
    if (rows.length === 0) break;
    const outcome = await fillChunk(options, rows, budget);
    if (outcome === 'budget') await db.setMetaWhileSignedIn('bodiesBudgetFull', limit);
    if (outcome) return outcome;
    walked += rows.length;
    if (options.newest !== undefined && walked >= options.newest) return 'done';
    await yieldToUi();
  }
  // Only a walk over every article that found all their bodies ends the wanting; an article synced as a
  // card meanwhile set it again in the same transaction as its card.
  await db.transaction('rw', db.meta, async () => {
    if (!(await db.getMeta('cardsPull'))) await db.setMetaWhileSignedIn('bodiesWanted', false);
  });
  return 'done';
}
