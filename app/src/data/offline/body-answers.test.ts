// The bodies a new device fetches are kept as their HTML only, whatever else an answer carries (an older
// server sent each body's search text too): the search index makes the text itself. An answer is read as it
// streams in and kept until the download says how many of its bodies fit the budget.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { articleSummary } from '../testing/article-summary';
import { rememberReader } from '../testing/device-user';
import { LecternDb } from '../db/lectern-db';
import { bodySizeOf, putArticles } from '../db/local-store';
import { bodiesOf, bodyOf, countBodies } from '../db/bodies';
import { keepBodyAnswers, storeBodies, type Body } from './body-answers';

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

describe('keepBodyAnswers', () => {
  /** An answer of POST /articles/bodies sent in pieces of seven bytes, as a slow network would. */
  const streamed = (answer: object) => {
    const bytes = new TextEncoder().encode(JSON.stringify(answer));
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) controller.close();
        else controller.enqueue(bytes.slice(at, (at += 7)));
      },
    });
    return new Response(stream);
  };

  it('answers each body by id and size, and stores only the first ones the download says fit', async () => {
    const db = new LecternDb(`answers-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await rememberReader(db);
    await putArticles(
      db,
      ['a', 'b', 'c'].map((id) => articleSummary(id)),
      true,
    );
    const answers = keepBodyAnswers(db);
    const kale = '<p>Kale, “cavolo nero”</p>';
    const summary = await answers.read(
      1,
      streamed({
        bodies: [
          { id: 'a', content: kale },
          { id: 'b', content: '<p>Beet</p>' },
        ],
        unknown: ['z'],
      }),
    );
    expect(summary).toEqual({
      bodies: [
        { id: 'a', chars: kale.length, size: bodySizeOf(kale) },
        { id: 'b', chars: 11, size: bodySizeOf('<p>Beet</p>') },
      ],
      unknown: ['z'],
    });
    expect(await countBodies(db)).toBe(0);
    expect(await answers.store(1, 1)).toBe(bodySizeOf(kale));
    expect((await bodiesOf(db, ['a', 'b'])).map((row) => row?.content)).toEqual([kale, undefined]);
    expect(await db.getMeta('bodyBytes')).toBe(bodySizeOf(kale));
    // Stored once: the answer is forgotten after, and a store of it again writes nothing.
    expect(await answers.store(1, 2)).toBe(0);
    expect(await countBodies(db)).toBe(1);
    db.close();
  });

  it('forgets an answer none of whose bodies fit, and fails a read of an answer cut short', async () => {
    const db = new LecternDb(`answers-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await rememberReader(db);
    await putArticles(db, [articleSummary('a')], true);
    const answers = keepBodyAnswers(db);
    await answers.read(7, streamed({ bodies: [{ id: 'a', content: '<p>Dropped</p>' }], unknown: [] }));
    expect(await answers.store(7, 0)).toBe(0);
    expect(await answers.store(7, 1)).toBe(0);
    const cut = new Response('{"bodies":[{"id":"a","content":"<p>Half');
    await expect(answers.read(8, cut)).rejects.toThrow('The answer ended in the middle');
    expect(await countBodies(db)).toBe(0);
    expect(await bodyOf(db, 'a')).toBeUndefined();
    db.close();
  });
});
