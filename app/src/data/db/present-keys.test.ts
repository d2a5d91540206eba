// presentKeys answers which of the keys asked a table holds, whether they lie close together (one read of
// the range between them) or far apart (a count each), with duplicates and any characters.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { LecternDb } from './lectern-db';
import { presentKeys } from './present-keys';

async function dbHolding(ids: string[]): Promise<LecternDb> {
  const db = new LecternDb(`present-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.tags.bulkPut(
    ids.map((id) => ({ id, name: id, name_key: id, created_at: '2026-01-01T00:00:00.000Z' })),
  );
  return db;
}

const id = (n: number) => `k${String(n).padStart(4, '0')}`;

describe('presentKeys', () => {
  it('answers the held keys among keys close together, duplicates and missing ones included', async () => {
    const db = await dbHolding(Array.from({ length: 100 }, (_, n) => id(n * 2)));
    const asked = [id(10), id(11), id(12), id(12), id(40), id(41), id(13), id(14)];
    expect([...(await presentKeys(db.tags, asked))].sort()).toEqual([id(10), id(12), id(14), id(40)]);
    db.close();
  });

  it('answers the held keys among keys far apart, with many others between', async () => {
    const db = await dbHolding(Array.from({ length: 2_000 }, (_, n) => id(n)));
    const asked = [id(1_999), 'zzz', id(0), id(1_000), 'a'];
    expect([...(await presentKeys(db.tags, asked))].sort()).toEqual([id(0), id(1_000), id(1_999)]);
    db.close();
  });

  it('orders keys as IndexedDB does: case, accents and characters beyond the first plane', async () => {
    const held = ['Zebra', 'apple', 'éclair', '😀 grin', 'ｆull', 'a'];
    const db = await dbHolding(held);
    const asked = [...held, 'b', 'Ä', '😁'];
    expect([...(await presentKeys(db.tags, asked))].sort()).toEqual([...held].sort());
    expect(await presentKeys(db.tags, [])).toEqual(new Set());
    expect(await presentKeys(db.tags, ['nothing'])).toEqual(new Set());
    // One key: the range from it to itself, both ends included.
    expect(await presentKeys(db.tags, ['éclair'])).toEqual(new Set(['éclair']));
    db.close();
  });
});
