// How the article search index keeps up at little cost. A query with nothing written since the last look
// answers from the index without reading what changed; one after a write (this tab's or another's) takes
// it in. The index is written out not after every few rows (at 50,000 articles writing it is a task of over
// 100 ms and a collection twice as long, and the next start takes a few rows in again in milliseconds), but
// once SAVE_AFTER_ROWS rows were gone through since it was stored, or when the page is hidden. Whatever was
// not written out is taken in again by the next start, so nothing is ever missed.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { tagNameKey } from '@lectern/shared-schema';
import { describe, expect, it, vi } from 'vitest';
import { LecternDb } from '../db/lectern-db';
import { deleteArticleLocally, nextRev, putArticles } from '../db/local-store';
import type { ArticleRow } from '../db/rows';
import { deleteBodies, putBodies } from '../db/bodies';
import { articleSummary } from '../testing/article-summary';
import { rememberReader } from '../testing/device-user';
import { LIVE_ANSWER } from '../testing/live-answer';
import { writeLongReads } from '../testing/long-reads';
import { createArticleSearch, SAVE_AFTER_ROWS } from './article-search';

async function signedInDb(): Promise<LecternDb> {
  const db = new LecternDb(`search-upkeep-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  await rememberReader(db);
  return db;
}

let rev = 0;

/** Writes articles `from`..`to` (excluded) as a sync would, each titled with its number in words. */
async function writeArticles(db: LecternDb, from: number, to: number, word = 'harvest'): Promise<void> {
  const rows: ArticleRow[] = [];
  for (let n = from; n < to; n += 1) {
    const summary = articleSummary(`a${n}`, { title: `${word} number${n}`, tags: ['garden'] });
    rows.push({ ...summary, tag_keys: summary.tags.map(tagNameKey), rev: (rev += 1) });
  }
  await db.articles.bulkPut(rows);
}

/** The index over this database, as the app makes it, with the page's visibility in the test's hands. */
function searchOver(db: LecternDb) {
  const hidden = new Set<() => void>();
  const search = createArticleSearch(db, {
    pause: async () => {},
    saveDelayMs: 0,
    whenHidden: (save) => {
      hidden.add(save);
      return () => hidden.delete(save);
    },
  });
  return {
    search,
    hide: () => {
      for (const save of hidden) save();
    },
    watchers: () => hidden.size,
  };
}

/** A library of `count` articles and an index over it that has taken them in by a first query. */
async function searchedLibrary(count: number) {
  const db = await signedInDb();
  await writeArticles(db, 0, count);
  const index = searchOver(db);
  expect(await index.search.search('harvest')).toHaveLength(count);
  return { db, index };
}

/** Lets a save started by a timer or a hidden page finish. */
async function settle(search: ReturnType<typeof createArticleSearch>, saves: number) {
  await expect.poll(() => search.stats.saves, LIVE_ANSWER).toBe(saves);
}

describe('the article search index catches up', () => {
  it('only when something was written since it last looked, here or in another tab', async () => {
    const { db, index } = await searchedLibrary(3);
    const { catchUps } = index.search.stats;
    expect(await index.search.search('number1 harvest')).toEqual(['a1']);
    expect(await index.search.search('harvest')).toHaveLength(3);
    expect(index.search.stats.catchUps).toBe(catchUps);

    // Written by another tab (straight into the database, as its writes arrive here).
    await writeArticles(db, 3, 4, 'orchard');
    expect(await index.search.search('orchard')).toEqual(['a3']);
    expect(index.search.stats.catchUps).toBe(catchUps + 1);
    // A body stored on its own (after its card) is taken in too.
    await putBodies(db, [{ id: 'a0', content: '<p>Quince jelly</p>', rev: 10_000 }]);
    expect(await index.search.search('quince')).toEqual(['a0']);
    index.search.stop();
    db.close();
  });
});

describe('the article search index takes in every row of one write', () => {
  it('a sync page of more articles than one step takes, all under one rev, and their bodies', async () => {
    const { db, index } = await searchedLibrary(1);
    // More than a step of the catch-up (100 rows), as a page of the feed (up to 1,000) is written.
    const count = 250;
    await putArticles(
      db,
      Array.from({ length: count }, (_, n) => ({
        ...articleSummary(`p${n}`, { title: `orchard number${n}` }),
        content: `<p>Pear${n} grows here</p>`,
      })),
    );
    const revs = new Set((await db.articles.where('id').startsWith('p').toArray()).map((row) => row.rev));
    expect(revs.size).toBe(1);

    expect(await index.search.search('orchard')).toHaveLength(count);
    expect(await index.search.search(`pear${count - 1}`)).toEqual([`p${count - 1}`]);
    expect(await index.search.search('pear0 grows')).toEqual(['p0']);
    index.search.stop();
    db.close();
  });

  it('makes the text of long bodies a slice at a time, giving the page back between slices, once each', async () => {
    const db = await signedInDb();
    await writeLongReads(db);
    let pauses = 0;
    const search = createArticleSearch(db, {
      pause: async () => {
        pauses += 1;
      },
      whenHidden: () => () => {},
    });
    // A body read by its article's id goes through the packs' id index (db/bodies.ts).
    const bodiesReadById = vi.spyOn(db.bodies, 'where');
    await search.prepare();
    // Six bodies of 300,000 characters: a pause after each (past 256 K), never all of them in one task.
    expect(pauses).toBeGreaterThanOrEqual(5);
    // Each body read, made into text and indexed once, by the bodies' pass: the rows' pass, finding each
    // row as that pass took it in, read none of them again.
    expect(search.stats.rowsIndexed).toBe(6);
    expect(bodiesReadById).not.toHaveBeenCalledWith('ids');
    expect(await search.search('chapter4')).toEqual(['long4']);
    expect(await search.search('prose long')).toHaveLength(6);
    search.stop();
    db.close();
  });

  it('a row written again without its body keeps the words of the body it has on the device', async () => {
    const db = await signedInDb();
    await putArticles(db, [{ ...articleSummary('r1', { title: 'Plain title' }), content: '<p>Quince</p>' }]);
    const index = searchOver(db);
    expect(await index.search.search('quince')).toEqual(['r1']);
    // Renamed: a new rev for the row, none for the body (the bodies' pass has nothing to take in).
    await putArticles(db, [articleSummary('r1', { title: 'Renamed title' })]);
    expect(await index.search.search('renamed quince')).toEqual(['r1']);
    expect(await index.search.search('plain')).toEqual([]);
    // Then a new body alone, and both again.
    await putBodies(db, [{ id: 'r1', content: '<p>Medlar</p>', rev: await nextRev(db) }]);
    expect(await index.search.search('renamed medlar')).toEqual(['r1']);
    expect(await index.search.search('quince')).toEqual([]);
    index.search.stop();
    db.close();
  });

  it('knows a row written again as it was without reading its body again, unless that body left the device', async () => {
    const db = await signedInDb();
    await putArticles(
      db,
      ['s0', 's1', 's2'].map((id) => ({
        ...articleSummary(id, { title: `Plum ${id}` }),
        content: `<p>Sloe ${id}</p>`,
      })),
    );
    const index = searchOver(db);
    expect(await index.search.search('sloe')).toHaveLength(3);
    // Rewritten as they are (a first sync's cards moved into rows): new revs, the same words.
    const bodiesRead = vi.spyOn(db.bodies, 'bulkGet');
    const rewrite = async () => {
      const rows = (await db.articles.bulkGet(['s0', 's1', 's2'])) as ArticleRow[];
      const next = await nextRev(db);
      await db.articles.bulkPut(rows.map((row) => ({ ...row, rev: next })));
    };
    await rewrite();
    expect(await index.search.search('sloe s1')).toEqual(['s1']);
    expect(bodiesRead).not.toHaveBeenCalled();
    // A body gone with its row written again as it was (cards replacing bodies): read, and its words dropped.
    await deleteBodies(db, ['s1']);
    bodiesRead.mockClear();
    await rewrite();
    expect((await index.search.search('sloe')).sort()).toEqual(['s0', 's2']);
    expect(await index.search.search('plum s1')).toEqual(['s1']);
    expect(bodiesRead).toHaveBeenCalledOnce();
    index.search.stop();
    db.close();
  });

  it('a step of the catch-up ending inside a write: the rest of that write, then the writes after it', async () => {
    const db = await signedInDb();
    await writeArticles(db, 0, 1);
    // A stored index that has taken in up to the first article's rev; then a page of 150 under one rev.
    const first = searchOver(db);
    await first.search.flush();
    first.search.stop();
    const pageRev = (rev += 1);
    await db.articles.bulkPut(
      Array.from({ length: 150 }, (_, n) => {
        const summary = articleSummary(`q${String(n).padStart(3, '0')}`, { title: `meadow number${n}` });
        return { ...summary, tag_keys: [], rev: pageRev };
      }),
    );
    await writeArticles(db, 1, 2, 'meadow');
    const second = searchOver(db);
    expect(await second.search.search('meadow')).toHaveLength(151);
    second.search.stop();
    db.close();
  });
});

describe('the article search index is written out', () => {
  it('not for a few rows: the next start takes them in again on top of what was stored', async () => {
    const { db, index: first } = await searchedLibrary(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(first.search.stats.saves).toBe(0);
    expect(await db.search_index.count()).toBe(0);

    const reloaded = searchOver(db);
    expect(await reloaded.search.search('number2')).toEqual(['a2']);
    expect(reloaded.search.stats).toMatchObject({ loadedFromSnapshot: 0, rowsIndexed: 3, saves: 0 });
    first.search.stop();
    reloaded.search.stop();
    db.close();
  });

  it(`once ${SAVE_AFTER_ROWS} rows were gone through since it was stored, and a reload reads it back`, async () => {
    const { db, index } = await searchedLibrary(SAVE_AFTER_ROWS - 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(index.search.stats.saves).toBe(0);

    // One more row, rewritten for a flag (found unchanged), still counts: the next start would read it.
    await writeArticles(db, 0, 1);
    expect(await index.search.search('number0')).toEqual(['a0']);
    await settle(index.search, 1);

    const reloaded = searchOver(db);
    expect(await reloaded.search.search('number7 harvest')).toEqual(['a7']);
    expect(reloaded.search.stats).toMatchObject({ loadedFromSnapshot: 1, rowsIndexed: 0 });
    index.search.stop();
    reloaded.search.stop();
    db.close();
  });

  it('a slice at a time, as it was when it began: what is saved or deleted meanwhile is right after a reload', async () => {
    const db = await signedInDb();
    // 500 articles of 100 words of their own: the postings of a few slices of a write-out's merge.
    await putArticles(
      db,
      Array.from({ length: 500 }, (_, n) => ({
        ...articleSummary(`w${n}`, { title: `harvest number${n}` }),
        content: `<p>${Array.from({ length: 100 }, (_, k) => `word${n}x${k}`).join(' ')}</p>`,
      })),
    );
    let writeOut = false;
    let pausesWritingOut = 0;
    const search = createArticleSearch(db, {
      saveSliceMs: 0,
      whenHidden: () => () => {},
      pause: async () => {
        if (!writeOut) return;
        pausesWritingOut += 1;
        // Between the first two slices: a save and a delete, which the merge under way does not see.
        if (pausesWritingOut === 1) {
          await putArticles(db, [articleSummary('late', { title: 'harvest latecomer' })]);
          await deleteArticleLocally(db, 'w7');
          // Taken in by a catch-up while the write-out goes on: in the index, not in what it writes.
          expect(await search.search('latecomer')).toEqual(['late']);
        }
      },
    });
    expect(await search.search('word7x3')).toEqual(['w7']);
    writeOut = true;
    await search.flush();
    expect(pausesWritingOut).toBeGreaterThan(1);
    expect(search.stats.saves).toBe(1);

    const reloaded = createArticleSearch(db, { pause: async () => {}, whenHidden: () => () => {} });
    expect(await reloaded.search('harvest latecomer')).toEqual(['late']);
    expect(await reloaded.search('word7x3')).toEqual([]);
    expect(await reloaded.search('word499x99')).toEqual(['w499']);
    // Read back, with only the article saved meanwhile taken in again.
    expect(reloaded.stats).toMatchObject({ loadedFromSnapshot: 1, rowsIndexed: 1 });
    search.stop();
    reloaded.stop();
    db.close();
  });

  it('when the page is hidden, with what it had gone through; not again with nothing new, nor once stopped', async () => {
    const { db, index } = await searchedLibrary(3);
    index.hide();
    await settle(index.search, 1);
    index.hide();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(index.search.stats.saves).toBe(1);

    const reloaded = searchOver(db);
    expect(await reloaded.search.search('number1')).toEqual(['a1']);
    expect(reloaded.search.stats).toMatchObject({ loadedFromSnapshot: 1, rowsIndexed: 0 });

    await writeArticles(db, 3, 5, 'orchard');
    expect(await index.search.search('orchard')).toHaveLength(2);
    index.search.stop();
    expect(index.watchers()).toBe(0);
    reloaded.search.stop();
    db.close();
  });
});
