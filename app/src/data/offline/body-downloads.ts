// The bodies of articles that came as cards (a new device's first sync lists the whole library without
// them): fetched newest first, a batch at a time (POST /api/articles/bodies), each batch stored in its own
// small transaction, until every article has its body or the reader's budget is full. What still lacks a
// body is read from IndexedDB itself (an article without its `article_contents` row), so a reload or a
// lost connection just starts the walk again and fetches only what is missing; a body already on the
// device (the feed brought it, or it was opened) is never fetched nor written again.
import { BODIES_MAX_IDS, htmlToText, type BodiesResponse } from '@lectern/shared-schema';
import { ApiError, NetworkError, type HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import { bodySizeOf, hashOf, nextRev } from '../db/local-store';
import type { ArticleContentRow, ArticleRow } from '../db/rows';
import type { DownloadOutcome } from './image-downloads';
import { yieldToUi } from './yield-to-ui';

/** Article rows read at a time, newest first: a small slice of the library, never all of it. */
const WALK_CHUNK = 100;
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
      await yieldToUi();
    }
  }
  return prepared;
}

/**
 * Stores bodies of articles still on the device and still without one, in one small transaction, and
 * gives each such article a new rev (search and the offline images follow revs). Answers the bytes stored.
 */
export async function storeBodies(db: LecternDb, bodies: readonly PreparedBody[]): Promise<number> {
  if (bodies.length === 0) return 0;
  return db.transaction('rw', [db.articles, db.article_contents, db.meta], async () => {
    const ids = bodies.map((body) => body.id);
    const [rows, present] = await Promise.all([
      db.articles.bulkGet(ids),
      db.article_contents.where(':id').anyOf(ids).primaryKeys(),
    ]);
    const already = new Set(present);
    const rev = await nextRev(db);
    const contents: ArticleContentRow[] = [];
    const articles: ArticleRow[] = [];
    let bytes = 0;
    bodies.forEach((body, index) => {
      const row = rows[index];
      // Deleted meanwhile, or the feed (or an earlier answer) brought it first: that one is as new.
      if (!row || already.has(body.id)) return;
      already.add(body.id);
      contents.push({ id: body.id, content: body.content, text: body.text });
      articles.push({ ...row, content_hash: hashOf(body.content), body_size: body.size, rev });
      bytes += body.size;
    });
    await db.article_contents.bulkPut(contents);
    await db.articles.bulkPut(articles);
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
  return async function next(): Promise<ArticleRow[]> {
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
    const rows = await collection.limit(WALK_CHUNK).toArray();
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
  let missing: string[] = [];
  for (const row of rows) {
    if (present.has(row.id)) budget.used += row.body_size ?? 0;
    else missing.push(row.id);
  }
  // Older articles' bodies already on the device count too, so the walk goes on while it fits.
  while (missing.length > 0) {
    if (options.shouldStop()) return 'stopped';
    if (!http.hasToken()) return 'signedOut';
    if (!options.isOnline()) return 'offline';
    let answer: BodiesResponse;
    try {
      answer = await fetchBodies(http, missing.slice(0, BODIES_MAX_IDS));
    } catch (error) {
      return outcomeOf(error);
    }
    const answered = new Set([...answer.bodies.map((body) => body.id), ...answer.unknown]);
    // Newest first within the budget: the first body that doesn't fit stops the walk.
    const fitting: PreparedBody[] = [];
    let over = false;
    let coming = 0;
    for (const body of await prepareBodies(answer.bodies)) {
      if (limit !== Infinity && budget.used + coming + body.size > limit) {
        over = true;
        break;
      }
      fitting.push(body);
      coming += body.size;
    }
    const stored = await storeBodies(db, fitting);
    budget.used += stored;
    options.onBatch?.(fitting.length);
    if (over || (limit !== Infinity && budget.used > limit)) return 'budget';
    // An id neither answered nor unknown was left for the next call (the answer was full).
    missing = missing.filter((id) => !answered.has(id));
    if (answer.bodies.length === 0 && answer.unknown.length === 0) return 'retryLater';
    await yieldToUi();
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
  const budget = { used: 0 };
  let walked = 0;
  for (;;) {
    if (options.shouldStop()) return 'stopped';
    const rows = await next();
    if (rows.length === 0) break;
    const outcome = await fillChunk(options, rows, budget);
    if (outcome === 'budget') await db.setMeta('bodiesBudgetFull', limit);
    if (outcome) return outcome;
    walked += rows.length;
    if (options.newest !== undefined && walked >= options.newest) return 'done';
    await yieldToUi();
  }
  // Only a walk over every article that found all their bodies ends the wanting; an article synced as a
  // card meanwhile set it again in the same transaction as its card.
  await db.transaction('rw', db.meta, async () => {
    if (!(await db.getMeta('cardsPull'))) await db.setMeta('bodiesWanted', false);
  });
  return 'done';
}
