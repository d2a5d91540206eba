// The device's article search index as IndexedDB keeps it: a head (whose articles, up to which revs, the
// documents' ids and signatures) in `search_index`, and the postings in parts of about PART_POSTINGS each,
// by ranges of terms, in `search_index_parts`. Chromium copies a value in the task that puts it and in the
// one that reads it, about 25 ms a megabyte here: the whole index as one value held the page for over a
// second at 10,000 articles. A part is a task of a few tens of milliseconds. The parts are written first,
// each in a transaction of its own and under a generation of their own, and the head naming them last: a
// write-out cut short leaves the last one whole, and its parts are deleted by the next.
import type { LecternDb } from '../db/lectern-db';
import type { SearchIndexPartRow, SearchIndexRow } from '../db/rows';
import { partsOf, TermIndex, type TermIndexSnapshot } from './term-index';

export const SEARCH_INDEX_KEY = 'articles';
/** Postings a part holds: about 0.75 MB, a put of 20 to 40 ms in Chromium here. */
export const PART_POSTINGS = 250_000;

export interface StoredIndex {
  rev: number;
  bodyRev: number;
  index: TermIndex;
}

/** A head written since version 10: the documents, and the generation of the parts holding the postings. */
export type StoredHead = SearchIndexRow & Required<Pick<SearchIndexRow, 'ids' | 'generation' | 'parts'>>;

function partKey(generation: string, n: number): string {
  return `${generation}:${n}`;
}

/**
 * The index stored for `user`, or null: none, another user's, or parts missing (a wipe between). Read in
 * one transaction, so another tab's write-out can't take the parts away between the head and them.
 */
export function readStoredIndex(db: LecternDb, user: string): Promise<StoredIndex | null> {
  return db.transaction('r', [db.search_index, db.search_index_parts], async () => {
    const head = await db.search_index.get(SEARCH_INDEX_KEY);
    if (!head || head.user !== user || user === '') return null;
    const found = { rev: head.rev, bodyRev: head.bodyRev ?? 0 };
    // Written before the parts: the whole index in the head.
    if (head.snapshot) return { ...found, index: TermIndex.fromSnapshot(head.snapshot) };
    const { ids, signatures, generation, parts: count } = head;
    if (!ids || !signatures || generation === undefined || count === undefined) return null;
    const parts = await db.search_index_parts.bulkGet(
      Array.from({ length: count }, (_, n) => partKey(generation, n)),
    );
    if (parts.some((part) => part === undefined)) return null;
    return { ...found, index: TermIndex.fromParts({ ids, signatures }, parts as SearchIndexPartRow[]) };
  });
}

/**
 * Writes the postings of `snapshot` as parts of a new generation, each in its own transaction, calling
 * `between` between two; answers the head that names them, for the caller to put (commitStoredIndex), or
 * null, its parts deleted, once `head.user` is no longer on the device or another tab's write-out was
 * committed before its last part (which deleted the parts written so far: the rest would be written for
 * nothing; one committed after is found by commitStoredIndex).
 * A write that fails (the device's storage full) deletes the parts written before it rethrows: they would
 * hold that storage until the next write-out is committed.
 * `partPostings`: tests cut small indexes into many parts.
 */
export async function writeIndexParts(
  db: LecternDb,
  snapshot: TermIndexSnapshot,
  head: Pick<SearchIndexRow, 'rev' | 'bodyRev' | 'user'>,
  between: () => Promise<void>,
  partPostings = PART_POSTINGS,
): Promise<StoredHead | null> {
  const generation = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const dropParts = () => db.search_index_parts.where(':id').startsWith(`${generation}:`).delete();
  let count = 0;
  try {
    for (const part of partsOf(snapshot, partPostings)) {
      if (count > 0) await between();
      const written = await db.transaction('rw', [db.search_index_parts, db.meta], async () => {
        // Only while its reader is on the device: a logout meanwhile leaves none of their words behind.
        if ((await db.getMeta('user'))?.id !== head.user) return false;
        // Keys only: a part's value is copied whenever it is read.
        const first = db.search_index_parts.where(':id').equals(partKey(generation, 0));
        if (count > 0 && (await first.count()) === 0) return false;
        await db.search_index_parts.put({ key: partKey(generation, count), ...part });
        return true;
      });
      if (!written) {
        await dropParts();
        return null;
      }
      count += 1;
    }
  } catch (error) {
    await dropParts().catch(() => undefined);
    throw error;
  }
  const { ids, signatures } = snapshot;
  return { key: SEARCH_INDEX_KEY, ...head, ids, signatures, generation, parts: count };
}

/**
 * Makes `head` the stored index, with `keep`, and deletes every part of another generation (the one it
 * replaces, one cut short, one another tab is writing); without, deletes its own parts. Answers whether
 * `head` is now the stored index: not when another tab's write-out, made the stored one meanwhile, deleted
 * some of its parts (that one stays). Within the caller's transaction on both tables.
 */
export async function commitStoredIndex(db: LecternDb, head: StoredHead, keep: boolean): Promise<boolean> {
  const mine = `${head.generation}:`;
  const keys = await db.search_index_parts.toCollection().primaryKeys();
  const whole = keys.filter((key) => key.startsWith(mine)).length === head.parts;
  const kept = keep && whole;
  await db.search_index_parts.bulkDelete(keys.filter((key) => key.startsWith(mine) !== kept));
  if (kept) await db.search_index.put(head);
  return kept;
}
