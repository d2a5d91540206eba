// Reading what was written since a rev, a few rows at a time: every row once, in (rev, key) order, even when
// a row is deleted between a step's look at the keys and its read of the rows (the step then brings fewer
// rows than asked, and is not the last).
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { LecternDb } from './lectern-db';
import { rowsAfter, type RevPosition } from './rev-steps';

describe('rowsAfter', () => {
  it('goes on by its done flag, not by how many rows came, past a row deleted mid-step', async () => {
    const db = new LecternDb(`rev-steps-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    // Packs of bodies: keyed by seq, the order they were written in, which the rev index orders each rev's
    // rows by. One body to a pack here.
    const table = db.bodies;
    const pack = (id: string, rev: number) => ({
      rev,
      ids: [id],
      revIds: [[rev, id]] as [number, string][],
      bodies: [{ id, content: id, rev }],
    });
    // Six bodies of one write (rev 5), then two of a later one (rev 6), each written in the reverse order of
    // their ids: the steps go by seq, not by id.
    await table.bulkAdd([
      ...['b5', 'b4', 'b3', 'b2', 'b1', 'b0'].map((id) => pack(id, 5)),
      ...['c1', 'c0'].map((id) => pack(id, 6)),
    ]);
    const read: string[] = [];
    let at: RevPosition = { rev: 4, afterKey: null };
    const bulkGet = table.bulkGet.bind(table);
    // The first read of rows by key finds its first row deleted meanwhile (another tab, say).
    const deletingFirst = async (keys: number[]) => {
      await table.delete(keys[0]!);
      return bulkGet(keys);
    };
    vi.spyOn(table, 'bulkGet').mockImplementationOnce(deletingFirst as typeof table.bulkGet);
    for (let steps = 0; steps < 10; steps += 1) {
      const { rows, next, done } = await rowsAfter(table, at, 2);
      read.push(...rows.map((row) => row.ids[0]!));
      at = next;
      if (done) break;
    }
    expect(read).toEqual(['b5', 'b4', 'b2', 'b1', 'b0', 'c1', 'c0']);
    expect(at).toEqual({ rev: 6, afterKey: null });
    db.close();
  });
});
