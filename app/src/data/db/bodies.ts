// The articles' bodies, in `bodies`: each row keyed by when it was written (`seq`, counted up by
// IndexedDB) and found by its article's `id` through a unique index. Keyed by the article's id, as before
// version 11, a new device's ten thousand bodies went into the store in the order they were asked for
// (newest saved first), which is no order of their ids, and Chromium's on-disk store (LevelDB) merged
// every new batch into all the batches before it, again and again: 320 MB of bodies took 19 to 21 s to
// write there against 12 to 13 s in the order of their keys, the unique index's small entries included.
// Every read and write of a body goes through here, but for the search index's catch-up, which steps through
// the table by (rev, seq) as through the articles' (rev-steps.ts).
import Dexie from 'dexie';
import type { LecternDb } from './lectern-db';
import type { WrittenByRev } from './ids-written-since';
import type { ArticleContentRow } from './rows';

/** A body as stored: with the key IndexedDB gave it. */
export type BodyRow = ArticleContentRow & { seq?: number };

/**
 * Characters of bodies written by one request: the page's thread serializes a value as it is put (about
 * 40 ms a megabyte on a slow machine), so an answer of 1.5 MB of bodies written at once was a task of 60 to
 * 80 ms before anything else the answer costs.
 */
const BODY_WRITE_SLICE_CHARS = 256 * 1024;

/** Bodies in slices of about BODY_WRITE_SLICE_CHARS, in order: each slice is written by one request. */
function* bodySlices(bodies: readonly ArticleContentRow[]): Generator<ArticleContentRow[]> {
  let from = 0;
  let chars = 0;
  for (let i = 0; i < bodies.length; i += 1) {
    chars += bodies[i]!.content?.length ?? 0;
    if (chars >= BODY_WRITE_SLICE_CHARS || i === bodies.length - 1) {
      yield bodies.slice(from, i + 1);
      from = i + 1;
      chars = 0;
    }
  }
}

/** The row of one article's body without its `seq`: what the reads answer. */
function withoutSeq(row: BodyRow): ArticleContentRow;
function withoutSeq(row: BodyRow | undefined): ArticleContentRow | undefined;
function withoutSeq(row: BodyRow | undefined): ArticleContentRow | undefined {
  if (!row) return undefined;
  const body: BodyRow = { ...row };
  delete body.seq;
  return body;
}

/** The body of an article, if the device has one. */
export async function bodyOf(db: LecternDb, id: string): Promise<ArticleContentRow | undefined> {
  return withoutSeq(await db.bodies.get({ id }));
}

/**
 * The bodies of these articles, in their order (undefined where there is none). One index read per id, all
 * asked at once: Dexie's anyOf walks a cursor from key to key, a round trip to IndexedDB each.
 */
export function bodiesOf(db: LecternDb, ids: readonly string[]): Promise<(ArticleContentRow | undefined)[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.transaction('r', db.bodies, () =>
    Promise.all(ids.map(async (id) => withoutSeq(await db.bodies.get({ id })))),
  );
}

/** The seqs of these articles' bodies (keys only), for a delete. */
async function seqsOf(db: LecternDb, ids: readonly string[]): Promise<number[]> {
  const found = await Promise.all(ids.map((id) => db.bodies.where('id').equals(id).primaryKeys()));
  return found.flat();
}

/** Deletes the bodies of these articles, within the caller's transaction if there is one. */
export async function deleteBodies(db: LecternDb, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.transaction('rw', db.bodies, async () => {
    const seqs = await seqsOf(db, ids);
    if (seqs.length > 0) await db.bodies.bulkDelete(seqs);
  });
}

/**
 * Writes bodies, each replacing the one its article had: the old row is deleted and the new one added at
 * the end of the store. A slice at a time (bodySlices), each slice's adds in a task of their own, within
 * the caller's transaction if there is one.
 */
export async function putBodies(db: LecternDb, bodies: readonly ArticleContentRow[]): Promise<void> {
  if (bodies.length === 0) return;
  await db.transaction('rw', db.bodies, async () => {
    // Named twice: the last one is the one kept, as puts one after the other would leave it.
    const last = new Map(bodies.map((body) => [body.id, body]));
    await deleteBodies(db, [...last.keys()]);
    for (const slice of bodySlices([...last.values()])) await db.bodies.bulkAdd(slice);
  });
}

/**
 * Adds the bodies whose article has none yet, a slice at a time as putBodies writes them, within the
 * caller's transaction (which a body already there doesn't abort: the unique index refuses its add).
 * Answers the ids that had one: that body stays.
 */
export async function addBodies(db: LecternDb, bodies: readonly ArticleContentRow[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const slice of bodySlices(bodies)) {
    try {
      await db.bodies.bulkAdd(slice);
    } catch (error) {
      if (!(error instanceof Dexie.BulkError)) throw error;
      for (const [at, failure] of Object.entries(error.failuresByPos)) {
        // Only an id already there is a body already there; any other failure is the write's.
        if (failure.name !== 'ConstraintError') throw failure;
        taken.add(slice[Number(at)]!.id);
      }
    }
  }
  return taken;
}

/**
 * Every body, `size` at a time in the order they were written, each page read on from the last row's seq:
 * a body written again meanwhile (added anew at the end) still comes.
 */
export async function* bodyPages(db: LecternDb, size: number): AsyncGenerator<BodyRow[]> {
  for (let after = 0; ;) {
    const rows = await db.bodies.where(':id').above(after).limit(size).toArray();
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.seq!;
  }
}

/** The ids of every article with a body, from the id index alone (no body is read). */
export async function bodyIds(db: LecternDb): Promise<string[]> {
  return (await db.bodies.orderBy('id').keys()) as string[];
}

/** The highest rev a body was written under, 0 if none. */
export async function lastBodyRev(db: LecternDb): Promise<number> {
  return ((await db.bodies.orderBy('rev').lastKey()) as number | undefined) ?? 0;
}

/**
 * The ids of the bodies written above `from` and at most `upTo`, from the [rev+id] index alone (no body is
 * read), by rev, then by id within a rev.
 */
export async function bodyIdsWrittenBetween(db: LecternDb, from: number, upTo = Infinity): Promise<string[]> {
  const keys = await db.bodies
    .where('[rev+id]')
    .between([from, Dexie.maxKey], [upTo, Dexie.maxKey], false, true)
    .keys();
  return (keys as unknown as [number, string][]).map(([, id]) => id);
}

/** How many bodies were written above `rev`. */
export function countBodiesAbove(db: LecternDb, rev: number): Promise<number> {
  return db.bodies.where('rev').above(rev).count();
}

/** The bodies as createIdsWrittenSince reads them: by rev, ids from the [rev+id] index. */
export function bodiesByRev(db: LecternDb): WrittenByRev {
  return {
    lastRev: () => lastBodyRev(db),
    idsAbove: (rev) => bodyIdsWrittenBetween(db, rev),
  };
}
