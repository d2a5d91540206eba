// The stored search index: written in parts, each its own transaction, and made the stored one by its head
// at the end; read back whole, as it was, or not at all.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { LecternDb } from '../db/lectern-db';
import { rememberReader } from '../testing/device-user';
import { commitStoredIndex, readStoredIndex, SEARCH_INDEX_KEY, writeIndexParts } from './stored-index';
import { TermIndex } from './term-index';

/** A database whose reader `u` is on the device: parts are written only for them. */
async function openDb(): Promise<LecternDb> {
  const db = new LecternDb(`stored-index-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  await rememberReader(db, 'u');
  return db;
}

/** An index of 60 documents of a few words each, `word` in every one. */
function indexWith(word: string): TermIndex {
  const index = new TermIndex();
  for (let n = 0; n < 60; n += 1)
    index.set(`d${n}`, [{ text: `${word} pear${n % 7} plum${n} orchard`, weight: 1 + (n % 3) }], word);
  return index;
}

const noPause = () => Promise.resolve();

/** writeIndexParts, its reader on the device all along: the head naming the parts. */
async function partsWritten(...args: Parameters<typeof writeIndexParts>) {
  const head = await writeIndexParts(...args);
  if (!head) throw new Error('the write-out gave up');
  return head;
}

async function store(db: LecternDb, index: TermIndex, user: string, rev: number) {
  const head = await partsWritten(db, index.snapshot(), { rev, bodyRev: rev, user }, noPause, 25);
  await db.transaction('rw', [db.search_index, db.search_index_parts], () =>
    commitStoredIndex(db, head, true),
  );
  return head;
}

describe('the stored search index', () => {
  it('is written in parts and read back as the index it was', async () => {
    const db = await openDb();
    const index = indexWith('harvest');
    index.remove('d4');
    let pauses = 0;
    const head = await partsWritten(
      db,
      index.snapshot(),
      { rev: 9, bodyRev: 4, user: 'u' },
      async () => {
        pauses += 1;
      },
      25,
    );
    expect(head.parts).toBeGreaterThan(5);
    expect(pauses).toBe(head.parts - 1);
    // Not the stored index until its head is written.
    expect(await readStoredIndex(db, 'u')).toBeNull();
    await db.transaction('rw', [db.search_index, db.search_index_parts], () =>
      commitStoredIndex(db, head, true),
    );

    const stored = await readStoredIndex(db, 'u');
    expect(stored).toMatchObject({ rev: 9, bodyRev: 4 });
    // Its parts merged again are the index written out.
    expect(stored!.index.snapshot()).toEqual(index.snapshot());
    const back = stored!.index;
    for (const query of ['harvest', 'pear3 plum1', 'orch', 'plum4', 'pe'])
      expect(back.search(query)).toEqual(index.search(query));
    // Only this user's.
    expect(await readStoredIndex(db, 'someone else')).toBeNull();
    db.close();
  });

  it('cut short before its head: the one stored before stays, and the next write-out deletes the parts left', async () => {
    const db = await openDb();
    const first = await store(db, indexWith('harvest'), 'u', 1);
    await partsWritten(db, indexWith('orchard').snapshot(), { rev: 2, bodyRev: 2, user: 'u' }, noPause, 25);
    const stored = await readStoredIndex(db, 'u');
    expect(stored?.rev).toBe(1);
    expect(stored!.index.search('harvest')).toHaveLength(60);

    const third = await store(db, indexWith('quince'), 'u', 3);
    const keys = await db.search_index_parts.toCollection().primaryKeys();
    expect(keys.every((key) => key.startsWith(`${third.generation}:`))).toBe(true);
    expect(keys).toHaveLength(third.parts);
    expect(first.generation).not.toBe(third.generation);
    expect((await readStoredIndex(db, 'u'))!.index.search('quince')).toHaveLength(60);
    db.close();
  });

  it('given up (the device changed hands meanwhile): its parts go, the stored one stays', async () => {
    const db = await openDb();
    await store(db, indexWith('harvest'), 'u', 1);
    const before = await db.search_index_parts.count();
    const head = await partsWritten(db, indexWith('orchard').snapshot(), { rev: 2, user: 'u' }, noPause, 25);
    await db.transaction('rw', [db.search_index, db.search_index_parts], () =>
      commitStoredIndex(db, head, false),
    );
    expect(await db.search_index_parts.count()).toBe(before);
    expect((await readStoredIndex(db, 'u'))?.rev).toBe(1);
    db.close();
  });

  it('written by two tabs at once: the first made the stored one wins, the other stops writing and gives up its parts', async () => {
    const db = await openDb();
    const commit = (head: Awaited<ReturnType<typeof partsWritten>>) =>
      db.transaction('rw', [db.search_index, db.search_index_parts], () => commitStoredIndex(db, head, true));
    // The second tab writes its first part, then the first writes all its parts and makes its index the
    // stored one, deleting the second's part; the second sees it at its next part and writes no more.
    let firstDone!: () => void;
    const firstCommitted = new Promise<void>((resolve) => (firstDone = resolve));
    let secondWrote = 0;
    const second = writeIndexParts(
      db,
      indexWith('orchard').snapshot(),
      { rev: 2, user: 'u' },
      async () => {
        secondWrote += 1;
        await firstCommitted;
      },
      25,
    );
    const first = await partsWritten(db, indexWith('harvest').snapshot(), { rev: 1, user: 'u' }, noPause, 25);
    expect(await commit(first)).toBe(true);
    firstDone();
    expect(await second).toBeNull();
    expect(secondWrote).toBe(1);
    const stored = await readStoredIndex(db, 'u');
    expect(stored?.rev).toBe(1);
    expect(stored!.index.search('harvest')).toHaveLength(60);
    const keys = await db.search_index_parts.toCollection().primaryKeys();
    expect(keys).toHaveLength(first.parts);
    db.close();
  });

  it('whose write fails (storage full): the parts it wrote are deleted, the stored one stays', async () => {
    const db = await openDb();
    const stored = await store(db, indexWith('harvest'), 'u', 1);
    let puts = 0;
    db.search_index_parts.hook('creating', () => {
      if (++puts === 4) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const failing = writeIndexParts(db, indexWith('orchard').snapshot(), { rev: 2, user: 'u' }, noPause, 25);
    await expect(failing).rejects.toThrow('quota');
    expect(puts).toBe(4);
    const keys = await db.search_index_parts.toCollection().primaryKeys();
    expect(keys).toHaveLength(stored.parts);
    expect(keys.every((key) => key.startsWith(`${stored.generation}:`))).toBe(true);
    expect((await readStoredIndex(db, 'u'))!.index.search('harvest')).toHaveLength(60);
    db.close();
  });

  it("cut short by a logout: none of the reader's parts are left behind", async () => {
    const db = await openDb();
    let parts = 0;
    const head = await writeIndexParts(
      db,
      indexWith('harvest').snapshot(),
      { rev: 1, user: 'u' },
      async () => {
        if (++parts === 3) await db.wipe();
      },
      25,
    );
    expect(head).toBeNull();
    expect(await db.search_index_parts.count()).toBe(0);
    db.close();
  });

  it('with a part missing is not read at all; one written whole in its head (before version 10) is', async () => {
    const db = await openDb();
    const head = await store(db, indexWith('harvest'), 'u', 1);
    await db.search_index_parts.delete(`${head.generation}:2`);
    expect(await readStoredIndex(db, 'u')).toBeNull();

    const index = indexWith('orchard');
    await db.search_index.put({ key: SEARCH_INDEX_KEY, rev: 5, user: 'u', snapshot: index.snapshot() });
    const stored = await readStoredIndex(db, 'u');
    expect(stored).toMatchObject({ rev: 5, bodyRev: 0 });
    expect(stored!.index.search('orchard plum7')).toEqual(['d7']);
    db.close();
  });
});
