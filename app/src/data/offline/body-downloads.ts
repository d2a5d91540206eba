// The bodies of articles that came as cards (a new device's first sync lists the whole library without
// them): fetched newest first, a batch at a time (POST /api/articles/bodies), each batch stored in its own
// small transaction, until every article has its body or the bodies downloaded fill the reader's budget
// (bodies that come with the feed, and ones opened, are kept whatever the budget). What still lacks a
// body is read from IndexedDB itself (an article without its row in `bodies`), so a reload or a
// lost connection just starts the walk again and fetches only what is missing; a body already on the
// device (the feed brought it, or it was opened) is never fetched nor written again. The page makes the
// calls and decides by the answers' ids and sizes; each answer is read and stored where `answers` says
// (body-answers.ts: a worker in the browser, so the bodies' text never enters the page).
import { BODIES_ANSWER_BYTES, BODIES_MAX_IDS, compareNewestFirst } from '@lectern/shared-schema';
import { ApiError, NetworkError, type HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import { bodyIds } from '../db/bodies';
import { stagedNewestFirst } from '../db/staged-cards';
import type { ArticleRow } from '../db/rows';
import type { DownloadOutcome } from './image-downloads';
import {
  keepBodyAnswers,
  sendBodiesRequest,
  type AnsweredBody,
  type AnswerSummary,
  type BodyAnswers,
} from './body-answers';
import { markSync } from '../sync/sync-marks';
import { yieldToUi } from './yield-to-ui';

/** Article rows read at a time, newest first: a small slice of the library, never all of it. */
const WALK_CHUNK = 400;
/**
 * Bytes of bodies (as sent) asked for in one call: three quarters of an answer's budget, so
 * an answer is seldom cut at it (a cut answer's other ids are asked again next) and the next call can be on
 * its way before this one answers.
 */
const ASK_BYTES = (BODIES_ANSWER_BYTES * 3) / 4;
/** Ids asked for before any body's size is known: about 60 bodies of the median 25 KB fit an answer. */
const FIRST_ASK_IDS = 48;
/** Ids asked for at least: a library of very long articles still fetches a few at a time. */
const MIN_ASK_IDS = 4;
/** Calls on their way at once. */
const CALLS_IN_FLIGHT = 2;

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
  /**
   * Where answers are read and stored, made for one download and closed after it (a worker in the
   * browser: lectern.ts); on the calling thread when not given.
   */
  answers?: (db: LecternDb) => BodyAnswers;
}

/**
 * The next `count` articles, newest first, after the ones already walked (keyset on created_at, then id, the
 * dashboard's order). While a first sync's cards are staged (db/staged-cards.ts) they are walked with the
 * rows, merged in order, so the bodies come while the cards are still being moved into rows.
 */
function createWalk(db: LecternDb) {
  let last: ArticleRow | null = null;
  /** Rows after `last` in the created_at index (rows of the same created_at after it by id). */
  async function rowsAfter(count: number): Promise<ArticleRow[]> {
    const from = last;
    if (from === null) return db.articles.orderBy('created_at').reverse().limit(count).toArray();
    return db.articles
      .where('created_at')
      .belowOrEqual(from.created_at)
      .reverse()
      .filter((row) => compareNewestFirst(row, from) > 0)
      .limit(count)
      .toArray();
  }
  return async function next(count: number): Promise<ArticleRow[]> {
    const [rows, staged] = await Promise.all([rowsAfter(count), stagedNewestFirst(db)]);
    let walked = rows;
    if (staged) {
      // The staged cards after `last` (binary search in their order), merged with the rows; a card moved
      // or edited meanwhile may be in both: its row is walked.
      let low = 0;
      let high = staged.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (last === null || compareNewestFirst(staged[middle]!, last) > 0) high = middle;
        else low = middle + 1;
      }
      const byId = new Map<string, ArticleRow>();
      for (const row of [...staged.slice(low, low + count), ...rows]) byId.set(row.id, row);
      walked = [...byId.values()].sort(compareNewestFirst).slice(0, count);
    }
    if (walked.length > 0) last = walked[walked.length - 1]!;
    return walked;
  };
}

function outcomeOf(error: unknown): DownloadOutcome {
  if (error instanceof ApiError && error.status === 401) return 'signedOut';
  if (error instanceof NetworkError) return 'offline';
  return 'retryLater';
}

/**
 * How many ids to ask for in one call: as many as fit ASK_BYTES at the size of the bodies answered so far
 * (a library of short notes is fetched a hundred at a time, not two dozen: each call costs the page a round
 * of reads and a transaction whatever it carries), within [MIN_ASK_IDS, BODIES_MAX_IDS].
 */
export function createAskSize() {
  let bodies = 0;
  let chars = 0;
  return {
    /** Ids for the next call. */
    next(): number {
      if (bodies === 0) return FIRST_ASK_IDS;
      const perBody = Math.max(1, chars / bodies);
      return Math.min(BODIES_MAX_IDS, Math.max(MIN_ASK_IDS, Math.floor(ASK_BYTES / perBody)));
    },
    /** The bodies of an answer, counted. */
    answered(answered: readonly AnsweredBody[]): void {
      for (const body of answered) {
        bodies += 1;
        chars += body.chars;
      }
    },
  };
}

/** A call for bodies on its way, with the ids it asked for and the key its answer is kept under. */
interface Call {
  key: number;
  ids: string[];
  answer: Promise<AnswerSummary>;
}

/**
 * Fetches and stores the missing bodies, newest first, within the budget left: CALLS_IN_FLIGHT calls on
 * their way while the page makes the last answer ready and IndexedDB writes the one before (each waits on
 * the others otherwise: the page was idle half the time). Answers null once every article was walked, and
 * 'done' once the newest `options.newest` were.
 */
async function fillBodies(
  options: BodyDownloadOptions,
  budget: { used: number },
  answers: BodyAnswers,
): Promise<DownloadOutcome | null> {
  const { db, http, limit } = options;
  const walk = createWalk(db);
  let walked = 0;
  let walkEnded = false;
  /** The walk stopped at `newest` articles, not at the end of the library. */
  let stoppedAtNewest = false;
  /** Ids still to ask for, newest first. */
  const queue: string[] = [];
  const calls: Call[] = [];
  const askSize = createAskSize();
  let keys = 0;
  const ask = (ids: string[]): Call => {
    const key = (keys += 1);
    const answer = sendBodiesRequest(http, ids).then((response) => answers.read(key, response));
    // Left unawaited when the walk stops first (the budget, a reload): nothing to report then.
    answer.catch(() => undefined);
    return { key, ids, answer };
  };
  /**
   * The articles with a body when the walk began, read once from the bodies' id index: asking for each
   * walked chunk's ids in the bodies' own records cost Chromium's on-disk IndexedDB 2 to 8 ms a key. A body
   * stored after (the reader opened its article) is fetched again and left as it was (storeBodies).
   */
  let withBodies: Promise<Set<string>> | null = null;
  /** The next articles of the walk whose bodies are missing, into the queue. */
  const walkOnce = async () => {
    const count = Math.min(WALK_CHUNK, (options.newest ?? Infinity) - walked);
    stoppedAtNewest = count <= 0;
    withBodies ??= bodyIds(db).then((ids) => new Set(ids));
    const [rows, present] = await Promise.all([count > 0 ? walk(count) : [], withBodies]);
    walked += rows.length;
    if (rows.length === 0) walkEnded = true;
    queue.push(...rows.map((row) => row.id).filter((id) => !present.has(id)));
  };
  let walking: Promise<void> | null = null;
  const walkOn = () =>
    (walking ??= walkOnce().finally(() => {
      walking = null;
    }));
  // The batch being written while the next one is made ready: the page's work and IndexedDB's overlap.
  let storing: Promise<void> = Promise.resolve();
  try {
    for (;;) {
      // The next ids are looked up while the calls already asked are on their way (a failure is thrown
      // below, when the walk is waited for).
      const askIds = askSize.next();
      if (!walkEnded && queue.length < askIds * (CALLS_IN_FLIGHT + 1)) walkOn().catch(() => undefined);
      while (!walkEnded && queue.length < askIds) await walkOn();
      while (calls.length < CALLS_IN_FLIGHT && queue.length > 0) {
        if (options.shouldStop()) return 'stopped';
        if (!http.hasToken()) return 'signedOut';
        if (!options.isOnline()) return 'offline';
        calls.push(ask(queue.splice(0, askIds)));
      }
      const call = calls.shift();
      if (!call) return stoppedAtNewest ? 'done' : null;
      let answer: AnswerSummary;
      try {
        answer = await call.answer;
      } catch (error) {
        return outcomeOf(error);
      }
      if (answer.bodies.length === 0 && answer.unknown.length === 0) return 'retryLater';
      askSize.answered(answer.bodies);
      // An id neither answered nor unknown was left for the next call (the answer was full): asked first.
      const answered = new Set([...answer.bodies.map((body) => body.id), ...answer.unknown]);
      queue.unshift(...call.ids.filter((id) => !answered.has(id)));
      // Newest first within the budget: the first body that doesn't fit stops the walk. The batch still
      // being written counts at its size as answered until it says what it stored.
      let fitting = 0;
      let over = false;
      let added = 0;
      for (const body of answer.bodies) {
        if (limit !== Infinity && budget.used + added + body.size > limit) {
          over = true;
          break;
        }
        fitting += 1;
        added += body.size;
      }
      await storing;
      budget.used += added;
      storing = answers.store(call.key, fitting).then((stored) => {
        budget.used += stored - added;
        options.onBatch?.(fitting);
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
}

/**
 * Downloads the missing bodies, newest article first, until every article has one, the budget is full,
 * or the network or the session is gone; `bodiesWanted` is cleared only by a walk that found none missing.
 */
export async function downloadBodies(options: BodyDownloadOptions): Promise<DownloadOutcome> {
  const { db, limit } = options;
  if (!(await db.getMeta('bodiesWanted'))) return 'done';
  if (limit <= ((await db.getMeta('bodiesBudgetFull')) ?? -1)) return 'budget';
  const budget = { used: (await db.getMeta('bodyBytes')) ?? 0 };
  markSync('bodies', 'start');
  const answers = (options.answers ?? keepBodyAnswers)(db);
  const outcome = await fillBodies(options, budget, answers).finally(() => {
    answers.close();
    markSync('bodies', 'end');
  });
  if (outcome === 'budget') await db.setMetaWhileSignedIn('bodiesBudgetFull', limit);
  if (outcome) return outcome;
  // Only a walk over every article that found all their bodies ends the wanting; an article synced as a
  // card meanwhile set it again in the same transaction as its card.
  await db.transaction('rw', db.meta, async () => {
    if (!(await db.getMeta('cardsPull'))) await db.setMetaWhileSignedIn('bodiesWanted', false);
  });
  return 'done';
}
