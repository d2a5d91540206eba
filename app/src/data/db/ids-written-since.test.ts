// The reader of rows written since a rev (the image scan's mark, a staged page's rev): each call reads only
// what was written since the last, yet answers every row above the mark, and forgets what the mark passed.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { LecternDb } from './lectern-db';
import { createIdsWrittenSince, rowsByRev } from './ids-written-since';
import { bodiesByRev, putBodies } from './bodies';
import type { HighlightRow } from './rows';

const body = (id: string, rev: number) => ({ id, content: `<p>${id}</p>`, rev });

describe('createIdsWrittenSince', () => {
  it('answers every body above the mark as bodies come, reading on from the last rev read', async () => {
    const db = new LecternDb(`unscanned-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const unscanned = createIdsWrittenSince(db, bodiesByRev(db));
    expect(await unscanned(0)).toEqual(new Set());
    await putBodies(db, [body('a', 10), body('b', 11)]);
    expect(await unscanned(0)).toEqual(new Set(['a', 'b']));
    await putBodies(db, [body('c', 12), body('d', 13)]);
    // Read on from 11: the earlier ones are still answered.
    expect(await unscanned(0)).toEqual(new Set(['a', 'b', 'c', 'd']));
    // The scan passed the first read's rows: they go; a row written again comes back under its new rev.
    expect(await unscanned(11)).toEqual(new Set(['c', 'd']));
    await putBodies(db, [body('a', 14)]);
    expect(await unscanned(11)).toEqual(new Set(['a', 'c', 'd']));
    expect(await unscanned(14)).toEqual(new Set());
    db.close();
  });

  it('never misses a row above the mark, whatever the order of writes, reads and the scan (random runs)', async () => {
    for (let run = 0; run < 20; run += 1) {
      const db = new LecternDb(`unscanned-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
      const unscanned = createIdsWrittenSince(db, bodiesByRev(db));
      const revs = new Map<string, number>();
      let rev = 0;
      let mark = 0;
      for (let step = 0; step < 40; step += 1) {
        const roll = Math.random();
        if (roll < 0.5) {
          const id = `x${Math.floor(Math.random() * 12)}`;
          rev += 1;
          revs.set(id, rev);
          await putBodies(db, [body(id, rev)]);
        } else if (roll < 0.7) mark = Math.min(rev, mark + Math.floor(Math.random() * 4));
        const answer = await unscanned(mark);
        const due = [...revs].filter(([, r]) => r > mark).map(([id]) => id);
        for (const id of due) expect(answer.has(id), `${id} above ${mark}`).toBe(true);
        // What it answers beyond them is only rows the scan is still passing (none once it passed all).
        if (mark === rev) expect(answer).toEqual(new Set());
      }
      db.close();
    }
  });

  it('reads the ids of a table keyed by id as it reads the bodies', async () => {
    const db = new LecternDb(`unscanned-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const unscanned = createIdsWrittenSince(db, rowsByRev(db.highlights));
    const highlight = (id: string, rev: number): HighlightRow => ({
      id,
      article_id: 'a',
      highlighted_text: 'a phrase',
      context_before: '',
      context_after: '',
      position_start: 0,
      position_end: 8,
      color: 'yellow',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      rev,
    });
    await db.highlights.bulkPut([highlight('h1', 3), highlight('h2', 4)]);
    expect(await unscanned(3)).toEqual(new Set(['h2']));
    db.close();
  });

  it('starts over after the device is wiped (another account)', async () => {
    const db = new LecternDb(`unscanned-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const unscanned = createIdsWrittenSince(db, bodiesByRev(db));
    await putBodies(db, [body('old', 50)]);
    expect(await unscanned(0)).toEqual(new Set(['old']));
    await db.wipe();
    await putBodies(db, [body('new', 20)]);
    expect(await unscanned(0)).toEqual(new Set(['new']));
    db.close();
  });
});
