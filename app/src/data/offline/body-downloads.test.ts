// The bodies a new device fetches are kept as their HTML only, whatever else an answer carries (an older
// server sent each body's search text too): the search index makes the text itself. Each call asks for as
// many bodies as fit about one answer at the size of those answered so far.
import '../testing/install-fake-indexeddb';
import { BODIES_ANSWER_BYTES, BODIES_MAX_IDS } from '@lectern/shared-schema';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { articleSummary } from '../testing/article-summary';
import { rememberReader } from '../testing/device-user';
import { LecternDb } from '../db/lectern-db';
import { bodySizeOf, putArticles } from '../db/local-store';
import { bodiesOf, bodyOf, countBodies } from '../db/bodies';
import { createAskSize, storeBodies, type Body } from './body-downloads';

describe('storeBodies', () => {
  it('keeps the HTML of articles on the device, once, counts it in the budget, and nothing an answer adds', async () => {
    const db = new LecternDb(`bodies-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await rememberReader(db);
    await putArticles(db, [articleSummary('a'), articleSummary('b'), articleSummary('c')], true);
    const html = '<h1>Rhubarb</h1><p>Compote &amp; crumble</p>';
    // As an older server answered: each body with its text beside it.
    const fromOlderServer = { id: 'a', content: html, text: 'Rhubarb Compote & crumble' } as Body;
    const stored = await storeBodies(
      db,
      [fromOlderServer, { id: 'b', content: null }, { id: 'gone', content: '<p>Deleted meanwhile</p>' }],
      true,
    );
    expect(stored).toBe(bodySizeOf(html));
    expect(bodySizeOf(html)).toBe(2 * html.length);
    expect(await db.getMeta('bodyBytes')).toBe(2 * html.length);
    const rows = await bodiesOf(db, ['a', 'b', 'gone']);
    expect(rows.map((row) => row && { id: row.id, content: row.content, text: row.text })).toEqual([
      { id: 'a', content: html, text: undefined },
      { id: 'b', content: null, text: undefined },
      undefined,
    ]);
    // A body already on the device is neither written again nor counted twice.
    expect(await storeBodies(db, [{ id: 'a', content: '<p>Another</p>' }], true)).toBe(0);
    expect((await bodyOf(db, 'a'))?.content).toBe(html);
    expect(await db.getMeta('bodyBytes')).toBe(2 * html.length);
    // With others in one answer: the body already there stays, the others are written (the add that found
    // its key taken doesn't undo them), and a body answered twice is written once.
    const cress = '<p>Cress</p>';
    const mixed = [
      { id: 'a', content: '<p>Again</p>' },
      { id: 'c', content: cress },
      { id: 'c', content: '<p>Cress again</p>' },
    ];
    expect(await storeBodies(db, mixed, true)).toBe(bodySizeOf(cress));
    expect((await bodiesOf(db, ['a', 'c'])).map((row) => row?.content)).toEqual([html, cress]);
    expect(await db.getMeta('bodyBytes')).toBe(2 * html.length + bodySizeOf(cress));
    db.close();
  });
});

describe('storeBodies of a large answer', () => {
  it('writes it a slice of bodies at a time, so no one task serializes the whole answer', async () => {
    const db = new LecternDb(`bodies-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await rememberReader(db);
    const ids = Array.from({ length: 6 }, (_, i) => `long${i}`);
    await putArticles(
      db,
      ids.map((id) => articleSummary(id)),
      true,
    );
    const writes = vi.spyOn(db.bodies, 'bulkAdd');
    // Six long reads of 150,000 characters: 900,000 in all, written two by two.
    const long = '<p>' + 'A long read. '.repeat(11_538) + '</p>';
    const stored = await storeBodies(
      db,
      ids.map((id) => ({ id, content: long })),
    );
    expect(stored).toBe(6 * bodySizeOf(long));
    expect(writes.mock.calls.map(([rows]) => rows.length)).toEqual([2, 2, 2]);
    expect(await countBodies(db)).toBe(6);
    db.close();
  });
});

describe('createAskSize', () => {
  const bodies = (count: number, chars: number) =>
    Array.from({ length: count }, (_, i) => ({ id: String(i), content: 'h'.repeat(chars) }));

  it('asks for four dozen before any size is known, then as many as fit three quarters of an answer', () => {
    const ask = createAskSize();
    expect(ask.next()).toBe(48);
    // Bodies of 50,000 characters: 31 fit 1.5 MB.
    ask.answered(bodies(48, 50_000));
    expect(ask.next()).toBe(Math.floor((BODIES_ANSWER_BYTES * 3) / 4 / 50_000));
    expect(ask.next()).toBe(31);
  });

  it('asks for the most the server takes when the bodies are short notes, and a few when they are long', () => {
    const notes = createAskSize();
    notes.answered(bodies(24, 6_000));
    expect(notes.next()).toBe(BODIES_MAX_IDS);
    const books = createAskSize();
    books.answered(bodies(2, 1_000_000));
    expect(books.next()).toBe(4);
    // An answer with nothing but missing bodies counts them as small, not as nothing at all.
    const empty = createAskSize();
    empty.answered([{ id: 'gone', content: null }]);
    expect(empty.next()).toBe(BODIES_MAX_IDS);
  });
});
