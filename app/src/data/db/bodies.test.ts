// The bodies' table read and written through db/bodies.ts: bodies in packs, each found by its article id
// whatever pack holds it, a body written again moved to the end, and the pages of every body not missing
// one written again while they are read.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { LecternDb } from './lectern-db';
import {
  addBodies,
  bodiesOf,
  bodyIds,
  bodyIdsWrittenBetween,
  bodyOf,
  bodyPages,
  countBodies,
  deleteBodies,
  putBodies,
} from './bodies';

const body = (id: string, rev = 1, chars = 0) => ({
  id,
  content: `<p>${id} ${rev}</p>${'x'.repeat(chars)}`,
  rev,
});

function newDb(): LecternDb {
  return new LecternDb(`bodies-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
}

/** The ids of each pack, in the order the packs were written. */
async function packs(db: LecternDb): Promise<string[][]> {
  return (await db.bodies.toArray()).map((pack) => pack.ids);
}

describe('bodies', () => {
  it('reads by article id in the order asked, replaces a body written again, and deletes by id', async () => {
    const db = newDb();
    await putBodies(db, [body('c'), body('a'), body('b')]);
    // Named twice in one write: the last is kept.
    await putBodies(db, [body('a', 2), body('a', 3)]);
    expect(await bodiesOf(db, ['b', 'missing', 'a'])).toEqual([body('b'), undefined, body('a', 3)]);
    expect(await countBodies(db)).toBe(3);
    // Written again: out of its pack, in a pack of its own at the end of the store.
    expect(await packs(db)).toEqual([['c', 'b'], ['a']]);
    await deleteBodies(db, ['c', 'nothing']);
    expect(await bodyIds(db)).toEqual(['a', 'b']);
    expect(await packs(db)).toEqual([['b'], ['a']]);
    // A pack's last body deleted: the pack goes.
    await deleteBodies(db, ['b']);
    expect(await packs(db)).toEqual([['a']]);
    expect(await bodyOf(db, 'a')).toEqual(body('a', 3));
    expect(await bodyOf(db, 'b')).toBeUndefined();
    db.close();
  });

  it('fills packs to about 100 K characters, a long body in a pack of its own, a new rev in a new pack', async () => {
    const db = newDb();
    await putBodies(db, [
      body('s0', 1, 40_000),
      body('s1', 1, 40_000),
      body('s2', 1, 40_000),
      body('long', 1, 300_000),
      body('s3', 1, 10_000),
      body('t0', 2, 10),
    ]);
    expect(await packs(db)).toEqual([['s0', 's1', 's2'], ['long'], ['s3'], ['t0']]);
    expect((await bodyOf(db, 'long'))?.content).toHaveLength(body('long', 1, 300_000).content.length);
    // By rev from the revIds index: by rev, then by id.
    await putBodies(db, [body('u1', 3), body('u0', 3)]);
    expect(await bodyIdsWrittenBetween(db, 1)).toEqual(['t0', 'u0', 'u1']);
    expect(await bodyIdsWrittenBetween(db, 0, 1)).toEqual(['long', 's0', 's1', 's2', 's3']);
    // A long body after a pack not yet full still has a pack of its own.
    await putBodies(db, [body('v0', 4, 40_000), body('v1', 4, 200_000), body('v2', 4, 10)]);
    expect((await packs(db)).slice(-3)).toEqual([['v0'], ['v1'], ['v2']]);
    db.close();
  });

  it('leaves a body without a rev (a placeholder) out of the ids written since a rev', async () => {
    const db = newDb();
    await putBodies(db, [{ id: 'placeholder', content: null }]);
    await putBodies(db, [body('b', 2)]);
    expect(await bodyIdsWrittenBetween(db, -Infinity)).toEqual(['b']);
    expect(await bodyOf(db, 'placeholder')).toEqual({ id: 'placeholder', content: null });
    db.close();
  });

  it('adds bodies whose article has none, keeping the one there and answering its id', async () => {
    const db = newDb();
    await putBodies(db, [body('kept', 1)]);
    // `kept` is in the middle of the pack the add makes: the rest of that pack is still added.
    const taken = await db.transaction('rw', db.bodies, () =>
      addBodies(db, [body('n0', 2), body('kept', 2), body('n1', 2), body('n0', 2)]),
    );
    expect([...taken].sort()).toEqual(['kept', 'n0']);
    expect((await bodiesOf(db, ['n0', 'kept', 'n1'])).map((row) => row?.rev)).toEqual([2, 1, 2]);
    expect(await countBodies(db)).toBe(3);
    db.close();
  });

  it('pages through every body, one written again between two pages included', async () => {
    const db = newDb();
    for (const id of ['b0', 'b1', 'b2', 'b3', 'b4']) await putBodies(db, [body(id)]);
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
