// Every answer here is worked out by hand from the dates in the test, never by calling the function again.
import { describe, expect, it } from 'vitest';
import {
  compareNewestFirst,
  computeAnalytics,
  computeArticleStats,
  computeHighlightStats,
  matchesArticleFilter,
} from './stats';

// shared-schema has no Node typings; the tests only need the time zone variable, which Node reads again
// whenever it is assigned or deleted.
declare const process: { env: Record<string, string | undefined> };

/** Runs `check` with the device's clock in `zone` (the analytics count local days and months). */
function inZone(zone: string, check: () => void): void {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    check();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

const read = (updated_at: string, created_at = '2025-01-01T00:00:00.000Z') => ({
  created_at,
  updated_at,
  is_read: true,
});
const unread = (updated_at: string) => ({ ...read(updated_at), is_read: false });
const saved = (created_at: string) => ({ ...unread(created_at), created_at });

describe('computeArticleStats', () => {
  it('answers zeros for an empty library', () => {
    expect(computeArticleStats([])).toEqual({ total: 0, unread: 0, read: 0, archived: 0, favorites: 0 });
  });

  it('counts unread among the articles not archived, and read as total minus unread minus archived', () => {
    const articles = [
      { is_read: false, is_archived: false, is_favorite: false },
      { is_read: true, is_archived: false, is_favorite: false },
      { is_read: false, is_archived: true, is_favorite: false },
      { is_read: true, is_archived: true, is_favorite: true },
      { is_read: false, is_archived: false, is_favorite: true },
    ];
    // unread: the 1st and the 5th; archived: the 3rd and 4th; read: 5 - 2 - 2 = 1 (the 2nd).
    expect(computeArticleStats(articles)).toEqual({
      total: 5,
      unread: 2,
      read: 1,
      archived: 2,
      favorites: 2,
    });
  });
});

describe('matchesArticleFilter', () => {
  const article = { is_read: true, is_archived: false, is_favorite: false, tags: ['Straße', 'Home'] };

  it('filters by each flag given and ignores the absent ones', () => {
    expect(matchesArticleFilter(article, {})).toBe(true);
    expect(matchesArticleFilter(article, { archived: false, is_read: true })).toBe(true);
    expect(matchesArticleFilter(article, { archived: false, is_read: false })).toBe(false);
    expect(matchesArticleFilter(article, { favorite: true })).toBe(false);
  });

  it("finds a tag by its identity, as the server's name_key does", () => {
    expect(matchesArticleFilter(article, { tag_name: 'home' })).toBe(true);
    expect(matchesArticleFilter(article, { tag_name: ' STRASSE ' })).toBe(true);
    expect(matchesArticleFilter(article, { tag_name: 'strasse' })).toBe(true);
    expect(matchesArticleFilter(article, { tag_name: 'Haus' })).toBe(false);
  });
});

describe('compareNewestFirst', () => {
  it('lists newest first, ties by id from the highest', () => {
    const items = [
      { id: 'a', created_at: '2026-01-01T00:00:00.000Z' },
      { id: 'c', created_at: '2026-01-02T00:00:00.000Z' },
      { id: 'b', created_at: '2026-01-01T00:00:00.000Z' },
    ];
    expect([...items].sort(compareNewestFirst).map((item) => item.id)).toEqual(['c', 'b', 'a']);
  });
});

describe('computeHighlightStats', () => {
  const now = new Date('2026-03-08T12:00:00.000Z');

  it('answers zeros for no highlights', () => {
    expect(computeHighlightStats([], now)).toEqual({
      total_highlights: 0,
      articles_with_highlights: 0,
      highlights_this_week: 0,
    });
  });

  it('counts the week back to the same moment seven days ago, included', () => {
    const highlights = [
      { article_id: 'a', created_at: '2026-03-01T12:00:00.000Z' }, // exactly 7 days: counts
      { article_id: 'a', created_at: '2026-03-01T11:59:59.999Z' }, // a millisecond earlier: doesn't
      { article_id: 'b', created_at: '2026-03-08T11:00:00.000Z' },
    ];
    expect(computeHighlightStats(highlights, now)).toEqual({
      total_highlights: 3,
      articles_with_highlights: 2,
      highlights_this_week: 2,
    });
  });
});

describe('computeAnalytics', () => {
  it('answers zeros for an empty library, with the last 6 months named', () => {
    inZone('UTC', () => {
      expect(computeAnalytics([], [], new Date('2026-03-15T12:00:00.000Z'))).toEqual({
        topTags: [],
        monthlySaved: [
          { month: '2025-10', count: 0 },
          { month: '2025-11', count: 0 },
          { month: '2025-12', count: 0 },
          { month: '2026-01', count: 0 },
          { month: '2026-02', count: 0 },
          { month: '2026-03', count: 0 },
        ],
        thisMonth: 0,
        streak: 0,
      });
    });
  });

  it('counts a streak across a month end: reads on Jan 30, Jan 31 and Feb 1 make 3', () => {
    inZone('UTC', () => {
      const articles = [
        read('2026-01-28T09:00:00.000Z'), // Jan 29 has no read: the streak stops before this one
        read('2026-01-30T10:00:00.000Z'),
        read('2026-01-31T22:00:00.000Z'),
        read('2026-02-01T08:00:00.000Z'),
      ];
      expect(computeAnalytics(articles, [], new Date('2026-02-01T12:00:00.000Z')).streak).toBe(3);
    });
  });

  it('starts from yesterday when today has no read yet (Feb 27 and 28 of a common year, on Mar 1: 2)', () => {
    inZone('UTC', () => {
      const articles = [read('2026-02-27T10:00:00.000Z'), read('2026-02-28T23:59:59.999Z')];
      expect(computeAnalytics(articles, [], new Date('2026-03-01T09:00:00.000Z')).streak).toBe(2);
    });
  });

  it('is 0 when neither today nor yesterday has a read, and unread articles never count', () => {
    inZone('UTC', () => {
      const now = new Date('2026-03-10T12:00:00.000Z');
      expect(computeAnalytics([read('2026-03-08T12:00:00.000Z')], [], now).streak).toBe(0);
      expect(computeAnalytics([unread('2026-03-10T11:00:00.000Z')], [], now).streak).toBe(0);
    });
  });

  it('counts at most 365 days back', () => {
    inZone('UTC', () => {
      const day = 24 * 60 * 60 * 1000;
      const now = Date.UTC(2026, 5, 1, 12);
      const articles = Array.from({ length: 400 }, (_, back) =>
        read(new Date(now - back * day).toISOString()),
      );
      expect(computeAnalytics(articles, [], new Date(now)).streak).toBe(365);
    });
  });

  it('counts a read at 23:30 in UTC-5 for that local day, not the next UTC one', () => {
    inZone('America/New_York', () => {
      // Now is Jan 30, 15:00 in New York (UTC-5). 03:00Z on Jan 30 is Jan 29, 22:00 there, and 04:30Z on
      // Jan 30 is Jan 29, 23:30: with the read of Jan 30 morning, two local days in a row. Counted in UTC
      // all three fall on Jan 30 and the streak would be 1.
      const articles = [
        read('2026-01-30T03:00:00.000Z'),
        read('2026-01-30T04:30:00.000Z'),
        read('2026-01-30T12:00:00.000Z'),
      ];
      expect(computeAnalytics(articles, [], new Date('2026-01-30T20:00:00.000Z')).streak).toBe(2);
    });
  });

  it("puts an article saved late on the last local evening of a month into that month's count", () => {
    inZone('America/New_York', () => {
      // 03:00Z on Feb 1 is Jan 31, 22:00 in New York; now is Jan 31, 23:00 there.
      const result = computeAnalytics(
        [saved('2026-02-01T03:00:00.000Z')],
        [],
        new Date('2026-02-01T04:00:00.000Z'),
      );
      expect(result.thisMonth).toBe(1);
      expect(result.monthlySaved.map(({ month }) => month)).toEqual([
        '2025-08',
        '2025-09',
        '2025-10',
        '2025-11',
        '2025-12',
        '2026-01',
      ]);
      expect(result.monthlySaved.at(-1)).toEqual({ month: '2026-01', count: 1 });
    });
  });

  it('counts saves per calendar month over the last 6, oldest first', () => {
    inZone('UTC', () => {
      const articles = [
        saved('2026-03-01T00:00:00.000Z'),
        saved('2026-02-28T23:59:59.999Z'),
        saved('2026-02-10T08:00:00.000Z'),
        saved('2025-10-01T00:00:00.000Z'), // the oldest of the 6 months
        saved('2025-09-30T23:59:59.999Z'), // a 7th month back: not shown
      ];
      const result = computeAnalytics(articles, [], new Date('2026-03-15T12:00:00.000Z'));
      expect(result.monthlySaved).toEqual([
        { month: '2025-10', count: 1 },
        { month: '2025-11', count: 0 },
        { month: '2025-12', count: 0 },
        { month: '2026-01', count: 0 },
        { month: '2026-02', count: 2 },
        { month: '2026-03', count: 1 },
      ]);
      expect(result.thisMonth).toBe(1);
    });
  });

  it('lists the top 5 tags by article_count, ties by name, leaving out unused tags', () => {
    const tags = [
      { name: 'alpha', article_count: 3 },
      { name: 'unused', article_count: 0 },
      { name: 'cooking', article_count: 5 },
      { name: 'garden', article_count: 1 },
      { name: 'echo', article_count: 3 },
      { name: 'Travel', article_count: 2 },
      { name: 'zebra', article_count: 1 },
    ];
    const { topTags } = computeAnalytics([], tags, new Date('2026-03-15T12:00:00.000Z'));
    expect(topTags).toEqual([
      { name: 'cooking', article_count: 5 },
      { name: 'alpha', article_count: 3 },
      { name: 'echo', article_count: 3 },
      { name: 'Travel', article_count: 2 },
      { name: 'garden', article_count: 1 },
    ]);
  });
});
