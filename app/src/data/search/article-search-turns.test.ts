// A catch-up of many bodies never holds the page: nobody waiting, it goes on in idle moments (keepUp, after
// a new device's bodies came); a search waiting for it, it gives the page back one turn at a time between
// slices.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { LecternDb } from '../db/lectern-db';
import { putArticles } from '../db/local-store';
import { articleSummary } from '../testing/article-summary';
import { rememberReader } from '../testing/device-user';
import { LIVE_ANSWER } from '../testing/live-answer';
import { writeLongReads } from '../testing/long-reads';
import { createArticleSearch } from './article-search';

async function signedInDb(): Promise<LecternDb> {
  const db = new LecternDb(`search-turns-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  await rememberReader(db);
  return db;
}

/** The index with its idle pauses and its turns counted; idle pauses take a little time, as the browser's do. */
function countedSearch(db: LecternDb) {
  const counts = { pauses: 0, turns: 0 };
  const search = createArticleSearch(db, {
    pause: async () => {
      counts.pauses += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    },
    turn: async () => {
      counts.turns += 1;
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    whenHidden: () => () => {},
  });
  return { search, counts };
}

describe('a catch-up of long bodies', () => {
  it('waited for by a search: a turn between slices, no idle pause, each body indexed once', async () => {
    const db = await signedInDb();
    await writeLongReads(db);
    const { search, counts } = countedSearch(db);
    expect(await search.search('chapter4')).toEqual(['long4']);
    // Six bodies of 300,000 characters: a turn after each (past 256 K), never all of them in one task.
    expect(counts.turns).toBeGreaterThanOrEqual(5);
    expect(counts.pauses).toBe(0);
    expect(search.stats.rowsIndexed).toBe(6);
    search.stop();
    db.close();
  });

  it('after bodies came (keepUp): taken in idle moments with no search, so the first search has nothing to take in', async () => {
    const db = await signedInDb();
    await putArticles(db, [{ ...articleSummary('first', { title: 'First card' }), content: '<p>Hello</p>' }]);
    const { search, counts } = countedSearch(db);
    // Not in use yet (never read back nor built): nothing is taken in for nobody.
    search.keepUp();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(search.stats.catchUps).toBe(0);

    expect(await search.search('hello')).toEqual(['first']);
    await writeLongReads(db);
    search.keepUp();
    await expect
      .poll(
        () => search.stats.rowsIndexed === 7 && search.stats.catchUpsEnded === search.stats.catchUps,
        LIVE_ANSWER,
      )
      .toBe(true);
    expect(counts.pauses).toBeGreaterThanOrEqual(5);
    expect(counts.turns).toBe(0);
    const { catchUps } = search.stats;
    expect(await search.search('prose chapter2')).toEqual(['long2']);
    expect(search.stats.catchUps).toBe(catchUps);
    search.stop();
    db.close();
  });

  it('in idle moments, joined by a search: goes on by turns from then on', async () => {
    const db = await signedInDb();
    await putArticles(db, [{ ...articleSummary('first', { title: 'First card' }), content: '<p>Hello</p>' }]);
    /** Idle moments come only when the test says. */
    const idle: (() => void)[] = [];
    let turns = 0;
    const search = createArticleSearch(db, {
      pause: () => new Promise<void>((resolve) => idle.push(resolve)),
      turn: async () => {
        turns += 1;
        await new Promise((resolve) => setTimeout(resolve, 0));
      },
      whenHidden: () => () => {},
    });
    expect(await search.search('hello')).toEqual(['first']);
    await writeLongReads(db);
    search.keepUp();
    // The upkeep's first idle moment, then its catch-up's first slice, which waits for the next one.
    await expect.poll(() => idle.length, LIVE_ANSWER).toBe(1);
    idle.shift()!();
    await expect.poll(() => idle.length, LIVE_ANSWER).toBe(1);
    expect(search.stats.rowsIndexed).toBeLessThan(7);
    const found = search.search('chapter5');
    idle.shift()!();
    expect(await found).toEqual(['long5']);
    // The rest went on by turns, without another idle moment.
    expect(turns).toBeGreaterThanOrEqual(1);
    expect(idle).toHaveLength(0);
    expect(search.stats.rowsIndexed).toBe(7);
    search.stop();
    db.close();
  });
});
