// The articles' bodies, in `bodies`, several to a row: a pack of the bodies one write stored, keyed by when
// it was written (`seq`, counted up by IndexedDB), each body found by its article's id through a unique
// multi-entry index of the pack's ids (`ids`).
// - Keyed by when they were written (version 11): keyed by the article's id, a new device's ten thousand
//   bodies went into the store in no order of their keys (newest saved first), and Chromium's on-disk store
//   (LevelDB) merged every batch into all the batches before it, again and again.
// - Packed (version 12): Chromium costs about as much per value as per byte, and keeps a value of about
//   100 K characters in LevelDB as cheaply as one of 30 K. In a bare page on disk, 10,000 bodies (337 MB)
//   took 10.7 to 11.8 s one to a value and 7.6 to 8.2 s three or four to a value (docs/performance.md).
// A body written again, or deleted, leaves its pack (rewritten without it, deleted once empty); every pack's
// bodies share its rev. Every read and write of a body goes through here, but for the search index's
// catch-up, which steps through the packs by (rev, seq) as through the articles (rev-steps.ts).
import Dexie from 'dexie';
import type { LecternDb } from './lectern-db';
import type { WrittenByRev } from './ids-written-since';
import type { ArticleContentRow } from './rows';

/** Bodies written by one write, in a row of the `bodies` table. */
export interface BodyPackRow {
  /** When the pack was written, counted up by IndexedDB. */
  seq?: number;
  /** The rev of the write that stored the pack, which every body in it has. */
  rev: number;
  /** The ids of the pack's bodies, in the unique multi-entry index that finds a body's pack. */
  ids: string[];
  /** [rev, id] of each body, in a multi-entry index: the ids written since a rev, without reading a body. */
  revIds: [number, string][];
  bodies: ArticleContentRow[];
}

/**
 * Characters a pack is filled to: a body past it starts the next pack (one longer than it is a pack of its
 * own). Chromium keeps a value of about this size in LevelDB; values of 260 K characters and more went to
 * a file each, which costs more per value.
 */
const PACK_CHARS = 96 * 1024;

/**
 * Characters of bodies written by one request: the page's thread serializes a value as it is put (about
 * 40 ms a megabyte on a slow machine), so an answer of 1.5 MB of bodies written at once was a task of 60 to
 * 80 ms before anything else the answer costs.
 */
const BODY_WRITE_SLICE_CHARS = 256 * 1024;

const charsOf = (body: ArticleContentRow): number => body.content?.length ?? 0;

/**
 * A pack of these bodies (written together, so of one rev). A body without a rev (a placeholder's, or one
 * stored before version 5) stays out of the revIds index, as it was out of [rev+id].
 */
function packOf(bodies: ArticleContentRow[]): BodyPackRow {
  return {
    rev: bodies[0]?.rev ?? 0,
    ids: bodies.map((body) => body.id),
    revIds: bodies.flatMap((body): [number, string][] =>
      body.rev === undefined ? [] : [[body.rev, body.id]],
    ),
    bodies,
  };
}

/**
 * Bodies in packs of about PACK_CHARS, in order; a new rev starts a new pack, a long body has one of its
 * own. Exported for the dashboard bench, which seeds a device's packs itself.
 */
export function packsOf(bodies: readonly ArticleContentRow[]): BodyPackRow[] {
  const packs: BodyPackRow[] = [];
  let pack: ArticleContentRow[] = [];
  let chars = 0;
  for (const body of bodies) {
    const full = chars >= PACK_CHARS || charsOf(body) >= PACK_CHARS;
    if (pack.length > 0 && (full || pack[0]!.rev !== body.rev)) {
      packs.push(packOf(pack));
      pack = [];
      chars = 0;
    }
    pack.push(body);
    chars += charsOf(body);
  }
  if (pack.length > 0) packs.push(packOf(pack));
  return packs;
}

/** Packs in slices of about BODY_WRITE_SLICE_CHARS, in order: each slice is written by one request. */
function* packSlices(packs: readonly BodyPackRow[]): Generator<BodyPackRow[]> {
  let from = 0;
  let chars = 0;
  for (let i = 0; i < packs.length; i += 1) {
    for (const body of packs[i]!.bodies) chars += charsOf(body);
    if (chars >= BODY_WRITE_SLICE_CHARS || i === packs.length - 1) {
      yield packs.slice(from, i + 1);
      from = i + 1;
      chars = 0;
    }
  }
}

/** The seq of the pack holding each of these articles' bodies (undefined where there is none), index keys only. */
function packSeqsOf(db: LecternDb, ids: readonly string[]): Promise<(number | undefined)[]> {
  return Promise.all(ids.map(async (id) => (await db.bodies.where('ids').equals(id).primaryKeys())[0]));
}

/** The packs named, each once. */
const distinctSeqs = (seqs: readonly (number | undefined)[]): number[] => [
  ...new Set(seqs.filter((seq): seq is number => seq !== undefined)),
];

/**
 * Whether each of these articles has a body on the device, from the id index alone (no body is read), in
 * one transaction.
 */
export function haveBodies(db: LecternDb, ids: readonly string[]): Promise<boolean[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.transaction('r', db.bodies, async () =>
    (await packSeqsOf(db, ids)).map((seq) => seq !== undefined),
  );
}

/** The body of an article, if the device has one. */
export async function bodyOf(db: LecternDb, id: string): Promise<ArticleContentRow | undefined> {
  const pack = await db.bodies.get({ ids: id });
  return pack?.bodies.find((body) => body.id === id);
}

/**
 * The bodies of these articles, in their order (undefined where there is none): the packs' keys by one
 * index read per id, all asked at once (Dexie's anyOf walks a cursor from key to key, a round trip to
 * IndexedDB each), then each pack read once.
 */
export function bodiesOf(db: LecternDb, ids: readonly string[]): Promise<(ArticleContentRow | undefined)[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.transaction('r', db.bodies, async () => {
    const seqs = await packSeqsOf(db, ids);
    const wanted = distinctSeqs(seqs);
    const packs = new Map<number, BodyPackRow>();
    (await db.bodies.bulkGet(wanted)).forEach((pack, i) => {
      if (pack) packs.set(wanted[i]!, pack);
    });
    return ids.map((id, i) => {
      const seq = seqs[i];
      return seq === undefined ? undefined : packs.get(seq)?.bodies.find((body) => body.id === id);
    });
  });
}

/** Deletes the bodies of these articles (their packs rewritten without them), within the caller's transaction if any. */
export async function deleteBodies(db: LecternDb, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.transaction('rw', db.bodies, async () => {
    const seqs = distinctSeqs(await packSeqsOf(db, ids));
    if (seqs.length === 0) return;
    const gone = new Set(ids);
    const emptied: number[] = [];
    const kept: BodyPackRow[] = [];
    for (const pack of await db.bodies.bulkGet(seqs)) {
      if (!pack) continue;
      const bodies = pack.bodies.filter((body) => !gone.has(body.id));
      if (bodies.length === 0) emptied.push(pack.seq!);
      else kept.push({ ...packOf(bodies), seq: pack.seq!, rev: pack.rev });
    }
    if (emptied.length > 0) await db.bodies.bulkDelete(emptied);
    if (kept.length > 0) await db.bodies.bulkPut(kept);
  });
}

/**
 * Writes bodies, each replacing the one its article had: the old one leaves its pack and the new ones are
 * added in packs at the end of the store, a slice at a time (packSlices), each slice's adds in a task of
 * their own, within the caller's transaction if there is one.
 */
export async function putBodies(db: LecternDb, bodies: readonly ArticleContentRow[]): Promise<void> {
  if (bodies.length === 0) return;
  await db.transaction('rw', db.bodies, async () => {
    // Named twice: the last one is the one kept, as puts one after the other would leave it.
    const last = new Map(bodies.map((body) => [body.id, body]));
    await deleteBodies(db, [...last.keys()]);
    for (const slice of packSlices(packsOf([...last.values()]))) await db.bodies.bulkAdd(slice);
  });
}

/**
 * Adds the packs, answering the ids that had a body already: the unique index refuses a pack holding one
 * (which doesn't abort the caller's transaction), and that pack is added again without them.
 */
async function addPacks(db: LecternDb, packs: BodyPackRow[], taken: Set<string>): Promise<void> {
  const refused: BodyPackRow[] = [];
  try {
    await db.bodies.bulkAdd(packs);
  } catch (error) {
    if (!(error instanceof Dexie.BulkError)) throw error;
    for (const [at, failure] of Object.entries(error.failuresByPos)) {
      // Only an id already there is a body already there; any other failure is the write's.
      if (failure.name !== 'ConstraintError') throw failure;
      refused.push(packs[Number(at)]!);
    }
  }
  for (const pack of refused) {
    const seqs = await packSeqsOf(db, pack.ids);
    const free = pack.bodies.filter((body, i) => {
      if (seqs[i] === undefined) return true;
      taken.add(body.id);
      return false;
    });
    if (free.length > 0) await db.bodies.add(packOf(free));
  }
}

/**
 * Adds the bodies whose article has none yet, in packs, a slice at a time as putBodies writes them, within
 * the caller's transaction (which a body already there doesn't abort). Answers the ids that had one: that
 * body stays. An id named twice keeps its first body.
 */
export async function addBodies(db: LecternDb, bodies: readonly ArticleContentRow[]): Promise<Set<string>> {
  const taken = new Set<string>();
  const first = new Map<string, ArticleContentRow>();
  for (const body of bodies) {
    if (first.has(body.id)) taken.add(body.id);
    else first.set(body.id, body);
  }
  for (const slice of packSlices(packsOf([...first.values()]))) await addPacks(db, slice, taken);
  return taken;
}

/**
 * Every body, `size` packs at a time in the order they were written, each page read on from the last pack's
 * seq: a body written again meanwhile (added anew at the end) still comes.
 */
export async function* bodyPages(db: LecternDb, size: number): AsyncGenerator<ArticleContentRow[]> {
  for (let after = 0; ;) {
    const packs = await db.bodies.where(':id').above(after).limit(size).toArray();
    if (packs.length === 0) return;
    yield packs.flatMap((pack) => pack.bodies);
    after = packs[packs.length - 1]!.seq!;
  }
}

/** The ids of every article with a body, from the id index alone (no body is read). */
export async function bodyIds(db: LecternDb): Promise<string[]> {
  return (await db.bodies.orderBy('ids').keys()) as string[];
}

/** How many bodies the device holds, from the id index alone. */
export function countBodies(db: LecternDb): Promise<number> {
  return db.bodies.orderBy('ids').count();
}

/** The highest rev a body was written under, 0 if none. */
export async function lastBodyRev(db: LecternDb): Promise<number> {
  return ((await db.bodies.orderBy('rev').lastKey()) as number | undefined) ?? 0;
}

/**
 * The ids of the bodies written above `from` and at most `upTo`, from the revIds index alone (no body is
 * read), by rev, then by id within a rev.
 */
export async function bodyIdsWrittenBetween(db: LecternDb, from: number, upTo = Infinity): Promise<string[]> {
  const keys = await db.bodies
    .where('revIds')
    .between([from, Dexie.maxKey], [upTo, Dexie.maxKey], false, true)
    .keys();
  return (keys as unknown as [number, string][]).map(([, id]) => id);
}

/** Whether any body was written above `rev`. */
export async function anyBodyAbove(db: LecternDb, rev: number): Promise<boolean> {
  return (await db.bodies.where('rev').above(rev).limit(1).primaryKeys()).length > 0;
}

/** The bodies as createIdsWrittenSince reads them: by rev, ids from the revIds index. */
export function bodiesByRev(db: LecternDb): WrittenByRev {
  return {
    lastRev: () => lastBodyRev(db),
    idsAbove: (rev) => bodyIdsWrittenBetween(db, rev),
  };
}
