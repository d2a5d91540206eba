// The answers of POST /api/articles/bodies, read and stored: each body parsed as the answer streams in,
// kept only as HTML, and written to the device under a new rev. A new device's download
// (offline/body-downloads.ts) reads a few hundred megabytes of them; it does so through `BodyAnswers`, which
// keeps each answer's bodies where they were parsed and hands the download only their ids and sizes, so
// that in a browser the bodies' text never enters the page: a worker reads and stores them
// (body-answers.worker.ts), and the page's heap holds the library's cards, not a stream of bodies waiting
// for a collection.
import type { BodiesResponse } from '@lectern/shared-schema';
import type { HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import { addBodies } from '../db/bodies';
import { bodySizeOf, nextRev } from '../db/local-store';
import { presentKeys } from '../db/present-keys';
import { stagedAmong, stagedTables } from '../db/staged-cards';
import type { ArticleContentRow } from '../db/rows';
import { readStreamedArray } from '../sync/feed-page';

/**
 * A body as the server answers it. Only the HTML is kept: the search index makes its text when it takes
 * the article in (search/article-search.ts), so each body is written (and counted in the budget) once.
 */
export type Body = BodiesResponse['bodies'][number];

/** Reads an answer of POST /articles/bodies as it streams in, each body parsed on its own. */
export async function readBodiesAnswer(response: Response): Promise<BodiesResponse> {
  // Never the answer (a megabyte or two) as one string.
  return readStreamedArray<BodiesResponse>(response, 'bodies');
}

/** Asks the server for these bodies (at most BODIES_MAX_IDS): what it answered, and the ids it doesn't know. */
export async function fetchBodies(http: HttpClient, ids: readonly string[]): Promise<BodiesResponse> {
  return readBodiesAnswer(await sendBodiesRequest(http, ids));
}

/** The request for these bodies, answered (its body not read yet). */
export function sendBodiesRequest(http: HttpClient, ids: readonly string[]): Promise<Response> {
  return http.send('POST', '/articles/bodies', { body: { ids }, cache: 'no-store' });
}

/**
 * Stores bodies of articles still on the device and still without one, in one small transaction, under a
 * new rev of their own: the article rows (what the dashboard lists) are not written. A body already there
 * (the feed or an earlier answer brought it, or the reader opened the article) is the one kept: the add
 * finds its key taken. Answers the bytes stored; with `count`, they are added to what the budget counts.
 */
export async function storeBodies(db: LecternDb, bodies: readonly Body[], count = false): Promise<number> {
  if (bodies.length === 0) return 0;
  return db.transaction('rw', [db.articles, db.bodies, ...stagedTables(db), db.meta], async () => {
    const ids = bodies.map((body) => body.id);
    const rows = await presentKeys(db.articles, ids);
    // A first sync's card still staged is an article on the device too (read from the pages' ids, not
    // their cards: a worker storing bodies never holds the library's cards).
    const notRows = ids.filter((id) => !rows.has(id));
    const staged = notRows.length > 0 ? await stagedAmong(db, notRows) : new Set<string>();
    const rev = await nextRev(db);
    const contents = new Map<string, ArticleContentRow>();
    for (const body of bodies) {
      // Deleted meanwhile, or named twice in the answer: the first is kept.
      if (!(rows.has(body.id) || staged.has(body.id)) || contents.has(body.id)) continue;
      // What the server answered, field by field: anything else it sent is not kept.
      contents.set(body.id, { id: body.id, content: body.content, rev });
    }
    const taken = await addBodies(db, [...contents.values()]);
    let bytes = 0;
    for (const row of contents.values()) if (!taken.has(row.id)) bytes += bodySizeOf(row.content);
    if (count && bytes > 0) await db.setMeta('bodyBytes', ((await db.getMeta('bodyBytes')) ?? 0) + bytes);
    return bytes;
  });
}

/** A body an answer carried, without its text: what the download decides by. */
export interface AnsweredBody {
  id: string;
  /** The HTML's length in characters (0 for none). */
  chars: number;
  /** What it would take of the budget (bodySizeOf). */
  size: number;
}

/** An answer of POST /articles/bodies as the download sees it: its bodies' ids and sizes. */
export interface AnswerSummary {
  bodies: AnsweredBody[];
  unknown: string[];
}

/**
 * Answers read and kept until stored. `read` reads an answer under a key of the caller's; `store` writes
 * the first `count` of its bodies (storeBodies, counted in the budget) and forgets the answer; `close`
 * forgets everything (and ends the worker, where there is one): the answers of calls the download no
 * longer waits for go with it.
 */
export interface BodyAnswers {
  read(key: number, response: Response): Promise<AnswerSummary>;
  store(key: number, count: number): Promise<number>;
  close(): void;
}

export function summarize(answer: BodiesResponse): AnswerSummary {
  return {
    bodies: answer.bodies.map((body) => ({
      id: body.id,
      chars: body.content?.length ?? 0,
      size: bodySizeOf(body.content),
    })),
    unknown: answer.unknown,
  };
}

/** BodyAnswers read and stored on the thread that calls it (a worker's, or the page's where none can run). */
export function keepBodyAnswers(db: LecternDb): BodyAnswers {
  const kept = new Map<number, Body[]>();
  return {
    async read(key, response) {
      const answer = await readBodiesAnswer(response);
      kept.set(key, answer.bodies);
      return summarize(answer);
    },
    async store(key, count) {
      const bodies = kept.get(key) ?? [];
      kept.delete(key);
      return storeBodies(db, bodies.slice(0, count), true);
    },
    close() {
      kept.clear();
    },
  };
}
