// The bodies' table read and written through db/bodies.ts: by article id whatever the seq, a body written
// again moved to the end, and the pages of every body not missing one written again while they are read.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { LecternDb } from './lectern-db';
import { bodiesOf, bodyIds, bodyPages, deleteBodies, putBodies } from './bodies';

const body = (id: string, rev = 1) => ({ id, content: `<p>${id} ${rev}</p>`, rev });

function newDb(): LecternDb {
  return new LecternDb(`bodies-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
}

describe('bodies', () => {
  it('reads by article id in the order asked, replaces a body written again, and deletes by id', async () => {
    const db = newDb();
    await putBodies(db, [body('c'), body('a'), body('b')]);
    // Named twice in one write: the last is kept.
    await putBodies(db, [body('a', 2), body('a', 3)]);
    expect(await bodiesOf(db, ['b', 'missing', 'a'])).toEqual([body('b'), undefined, body('a', 3)]);
    expect(await db.bodies.count()).toBe(3);
    // Written again: at the end of the store.
    expect((await db.bodies.toArray()).map((row) => row.id)).toEqual(['c', 'b', 'a']);
    await deleteBodies(db, ['c', 'nothing']);
    expect(await bodyIds(db)).toEqual(['a', 'b']);
    db.close();
  });

  it('pages through every body, one written again between two pages included', async () => {
    const db = newDb();
    await putBodies(
      db,
      ['b0', 'b1', 'b2', 'b3', 'b4'].map((id) => body(id)),
    );
    const seen: string[] = [];
    let rewritten = false;
    for await (const rows of bodyPages(db, 2)) {
      seen.push(...rows.map((row) => row.id));
      if (!rewritten) {
        // Read already, then written again: it comes again at the end, never lost.
        await putBodies(db, [body('b0', 2)]);
        rewritten = true;
      }
    }
    expect(seen).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b0']);
    db.close();
  });
});
