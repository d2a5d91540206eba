// The dashboard's analytics from the device's tables, with answers worked out by hand from the rows below.
import { computeAnalytics, tagNameKey, type ArticleSummary } from '@lectern/shared-schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { putArticles } from '../db/local-store';
import { articleSummary } from '../testing/article-summary';
import { createTestDevice, type TestDevice } from '../testing/test-lectern';
import { readingAnalytics } from './analytics';

let device: TestDevice;

beforeEach(() => {
  device = createTestDevice();
});

afterEach(async () => {
  await device.lectern.close();
});

/*
 * The times below are at noon UTC and now is 14:00 UTC, so the answers hold in any zone from UTC-11 to UTC+9
 * (the zones' own cases are in shared-schema/src/stats.test.ts). An article is unchanged since it was saved
 * unless `updated_at` says otherwise.
 */
let serial = 0;
const article = (fields: Partial<ArticleSummary> & Pick<ArticleSummary, 'created_at'>) =>
  articleSummary(`article-${(serial += 1)}`, fields);

async function addTags(...names: string[]) {
  await device.lectern.db.tags.bulkPut(
    names.map((name) => ({
      id: name,
      name,
      name_key: tagNameKey(name),
      created_at: '2026-01-01T00:00:00.000Z',
    })),
  );
}

describe('readingAnalytics', () => {
  it('answers zeros for an empty library', async () => {
    const analytics = await readingAnalytics(device.lectern.db, new Date('2026-02-01T14:00:00.000Z'));
    expect(analytics).toEqual({
      topTags: [],
      monthlySaved: [
        { month: '2025-09', count: 0 },
        { month: '2025-10', count: 0 },
        { month: '2025-11', count: 0 },
        { month: '2025-12', count: 0 },
        { month: '2026-01', count: 0 },
        { month: '2026-02', count: 0 },
      ],
      thisMonth: 0,
      streak: 0,
    });
  });

  it('counts the stored rows: tags by their articles, saves per month and a streak across a month end', async () => {
    await addTags('Home', 'science', 'unused');
    await putArticles(device.lectern.db, [
      // Read on Jan 30, Jan 31 and Feb 1: a streak of 3 on Feb 1.
      article({
        created_at: '2026-01-05T12:00:00.000Z',
        updated_at: '2026-01-30T12:00:00.000Z',
        is_read: true,
        tags: ['Home'],
      }),
      article({
        created_at: '2026-01-20T12:00:00.000Z',
        updated_at: '2026-01-31T12:00:00.000Z',
        is_read: true,
        tags: ['home', 'science'],
      }),
      article({
        created_at: '2025-12-24T12:00:00.000Z',
        updated_at: '2026-02-01T12:00:00.000Z',
        is_read: true,
      }),
      // Saved on Feb 1 and changed then, but unread: counts for February, not for the streak.
      article({ created_at: '2026-02-01T12:00:00.000Z', tags: ['Home'] }),
      // Read on Jan 28: Jan 29 has no read, so it doesn't lengthen the streak.
      article({
        created_at: '2025-08-15T12:00:00.000Z',
        updated_at: '2026-01-28T12:00:00.000Z',
        is_read: true,
      }),
    ]);

    const analytics = await readingAnalytics(device.lectern.db, new Date('2026-02-01T14:00:00.000Z'));
    expect(analytics).toEqual({
      // "home" is the tag Home: 3 articles carry it; science 1; unused none.
      topTags: [
        { name: 'Home', article_count: 3 },
        { name: 'science', article_count: 1 },
      ],
      // August 2025 is a 7th month back and isn't shown.
      monthlySaved: [
        { month: '2025-09', count: 0 },
        { month: '2025-10', count: 0 },
        { month: '2025-11', count: 0 },
        { month: '2025-12', count: 1 },
        { month: '2026-01', count: 2 },
        { month: '2026-02', count: 1 },
      ],
      thisMonth: 1,
      streak: 3,
    });
  });

  it('answers what computeAnalytics answers over every row, reading only through indexes', async () => {
    await addTags('a', 'b', 'c', 'd', 'e', 'f', 'g');
    // A seeded library over two years with read streaks of every length, some broken by a day.
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const now = new Date('2026-02-01T14:00:00.000Z');
    const day = 86_400_000;
    const rows = Array.from({ length: 600 }, () => {
      const created = now.getTime() - Math.floor(next() * 730) * day - Math.floor(next() * day);
      // Most changes in the last weeks, a gap on the 5th day back.
      const back = next() < 0.6 ? Math.floor(next() * 12) : Math.floor(next() * 400);
      const updated = Math.max(
        created,
        now.getTime() - (back === 5 ? 6 : back) * day - Math.floor(next() * 3_600_000),
      );
      const tags = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].filter(() => next() < 0.3);
      return article({
        created_at: new Date(created).toISOString(),
        updated_at: new Date(updated).toISOString(),
        is_read: next() < 0.4,
        tags,
      });
    });
    await putArticles(device.lectern.db, rows);
    const { tags } = await device.lectern.tags.list();
    for (const at of [now, new Date('2026-01-29T09:00:00.000Z'), new Date('2025-06-15T23:30:00.000Z')]) {
      const expected = computeAnalytics(rows, tags, at);
      expect(await readingAnalytics(device.lectern.db, at)).toEqual(expected);
    }
    expect(computeAnalytics(rows, tags, now).streak).toBeGreaterThan(2);
  });
});
