// A list read ahead at the app's start is handed to the screen that asks for exactly that list and range,
// once, and only soon after: a screen showing later reads its list live.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { tagNameKey } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { LecternDb } from '../db/lectern-db';
import { articleSummary } from '../testing/article-summary';
import { pageArticles } from './article-pages';
import { createReadAhead, READ_AHEAD_KEPT_MS } from './read-ahead';

async function libraryOf(count: number): Promise<LecternDb> {
  const db = new LecternDb(`read-ahead-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.articles.bulkPut(
    Array.from({ length: count }, (_, i) => {
      const summary = articleSummary(`a${i}`, {
        title: `Article ${i}`,
        created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        is_read: i % 2 === 0,
      });
      return { ...summary, tag_keys: summary.tags.map(tagNameKey), rev: i + 1 };
    }),
  );
  return db;
}

describe('a list read ahead', () => {
  it('is handed once to the screen asking for that list and range, as a live read answers it', async () => {
    const db = await libraryOf(30);
    const ahead = createReadAhead(db);
    await ahead.start({ archived: false }, 'newest', 0, 12);
    expect(ahead.take({ archived: false }, 'newest', 0, 24)).toBeUndefined();
    expect(ahead.take({ archived: false, is_read: true }, 'newest', 0, 12)).toBeUndefined();
    expect(ahead.take({ archived: false }, 'oldest', 0, 12)).toBeUndefined();

    const taken = ahead.take({ archived: false }, 'newest', 0, 12);
    expect(taken?.answered).toEqual(await pageArticles(db, { archived: false }, 'newest', 0, 12));
    expect(taken?.answered?.articles.map((article) => article.id).slice(0, 2)).toEqual(['a29', 'a28']);
    expect(ahead.take({ archived: false }, 'newest', 0, 12)).toBeUndefined();
    db.close();
  });

  it(`is not handed out once ${READ_AHEAD_KEPT_MS} ms have passed since it started`, async () => {
    const db = await libraryOf(5);
    let now = 1_000;
    const ahead = createReadAhead(db, () => now);
    await ahead.start({ archived: false }, 'newest', 0, 12);
    now += READ_AHEAD_KEPT_MS;
    expect(ahead.take({ archived: false }, 'newest', 0, 12)?.answered?.total).toBe(5);

    await ahead.start({ archived: false }, 'newest', 0, 12);
    now += READ_AHEAD_KEPT_MS + 1;
    expect(ahead.take({ archived: false }, 'newest', 0, 12)).toBeUndefined();
    db.close();
  });

  it('is not handed out once the device’s data was wiped (signed out, or another user signed in)', async () => {
    const db = await libraryOf(5);
    const ahead = createReadAhead(db);
    await ahead.start({ archived: false }, 'newest', 0, 12);
    await db.wipe();
    expect(ahead.take({ archived: false }, 'newest', 0, 12)).toBeUndefined();
    db.close();
  });

  it('settles with nothing when the read fails (the screen’s live read meets the failure and says it)', async () => {
    const db = await libraryOf(1);
    db.close();
    const ahead = createReadAhead(db);
    await ahead.start({ archived: false }, 'newest', 0, 12);
    const taken = ahead.take({ archived: false }, 'newest', 0, 12);
    expect(taken?.answered).toBeUndefined();
    expect(await taken?.answer).toBeUndefined();
  });
});
