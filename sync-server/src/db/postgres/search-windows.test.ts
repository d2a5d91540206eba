// PostgreSQL's search looks for the newest matches among the caller's articles of the last 1,000 seq, then
// of a window sized by the first's rate of matches, or all (db/postgres/search.ts, rankedArticles; migrations
// 0008): it must answer exactly what ranking the newest 500 matches of the whole library answers, for a word
// common enough to stop at the first window, one answered by the sized window, and rarer ones that need
// all; with another reader's rows interleaved, which it never answers.
import { SEARCH_RESULT_LIMIT } from '@lectern/shared-schema';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, stopTestCluster } from '../../testing/postgres-cluster';
import type { Db } from '../database';
import { openPostgres } from './connection';
import { articleMatchQuery, rankedArticles, searchArticleIds, searchQuery } from './search';

const READER = 'reader';
const OTHER = 'other-reader';
const ARTICLES = 4_000;

/**
 * Which words article n holds: `common` in 4 of 5, `third` in 1 of 3, `often` in 1 of 4, `middle` in 1 of 8,
 * `seldom` in 1 of 40.
 */
function wordsOf(n: number): string {
  const words = ['plain'];
  if (n % 5 < 4) words.push('common');
  if (n % 3 === 0) words.push('third');
  if (n % 4 === 0) words.push('often');
  if (n % 8 === 0) words.push('middle');
  if (n % 40 === 0) words.push('seldom');
  return words.join(' ');
}

let db: Db;

beforeAll(async () => {
  db = await openPostgres(await createTestDatabase());
  const { users, articles } = db.tables;
  const at = Date.parse('2026-01-01T00:00:00.000Z');
  await db.orm.insert(users).values([
    { id: READER, email: 'reader@example.com', createdAt: new Date(at).toISOString() },
    { id: OTHER, email: 'other@example.com', createdAt: new Date(at).toISOString() },
  ]);
  const rows: (typeof articles.$inferInsert)[] = [];
  for (let n = 0; n < ARTICLES; n++) {
    // Titles with the word in some, so ranking orders more than by date; dates not in seq order.
    const createdAt = new Date(at + ((n * 7919) % ARTICLES) * 60_000).toISOString();
    const row = {
      url: `https://example.org/${n}`,
      articleType: 'web' as const,
      createdAt,
      updatedAt: createdAt,
    };
    rows.push({
      ...row,
      id: `a-${n}`,
      userId: READER,
      title: n % 7 === 0 ? `${wordsOf(n)} title` : 'a title',
      contentText: `${wordsOf(n)} and the rest`,
    });
    // The other reader's rows sit between the reader's, inside every window, with every word.
    if (n % 3 === 0)
      rows.push({
        ...row,
        id: `b-${n}`,
        userId: OTHER,
        title: 'common third middle seldom',
        contentText: '',
      });
  }
  for (let start = 0; start < rows.length; start += 500)
    await db.orm.insert(articles).values(rows.slice(start, start + 500));
  await db.run(sql`ANALYZE articles, article_search_vectors`);
});

afterAll(async () => {
  await db?.close();
  await stopTestCluster();
});

/**
 * The search without windows: rank the caller's newest 500 matches of the whole library, each article's
 * vector made again from its row (not read from article_search_vectors, which the search reads).
 */
async function overAll(query: string): Promise<string[]> {
  const match = articleMatchQuery(query)!;
  const words = searchQuery(query)!;
  const rows = await db.all<{ id: string }>(sql`WITH q AS (SELECT ${match} AS match, ${words} AS words)
    SELECT newest.id FROM (
      SELECT a.id, a.created_at, a.search_rank_vector FROM articles a, q
      WHERE a.user_id = ${READER} AND lectern_article_match_vector(a) @@ q.match ORDER BY a.seq DESC LIMIT 500
    ) newest, q
    ORDER BY ts_rank_cd('{0.1, 0.3, 0.5, 1.0}'::real[], newest.search_rank_vector, q.words) DESC,
      newest.created_at DESC
    LIMIT ${SEARCH_RESULT_LIMIT}`);
  return rows.map((row) => row.id);
}

/** The plan PostgreSQL runs `query` by, for its values. */
async function explain(query: SQL): Promise<unknown> {
  const [row] = await db.all<{ 'QUERY PLAN': unknown }>(sql`EXPLAIN (FORMAT JSON) ${query}`);
  return row?.['QUERY PLAN'];
}

describe('search windows on PostgreSQL', () => {
  it.each([
    'common',
    'comm',
    'co',
    'third',
    'thi',
    'common thi',
    'often',
    'oft',
    'middle',
    'mid',
    'seldom',
    'sel',
    'common middle',
    'middle sel',
    'plain',
  ])('answers %j as the search over all matches', async (query) => {
    const answer = await searchArticleIds(db, READER, query);
    expect(answer.length).toBeGreaterThan(0);
    expect(answer).toEqual(await overAll(query));
    expect(answer.every((id) => id.startsWith('a-'))).toBe(true);
  });

  it('ranks the matches found by reading their rows alone, never the reader’s whole library', async () => {
    // A hash join with every article read (5,000 of them: 4 ms) cost more than the search itself.
    const plan = JSON.stringify(await explain(rankedArticles(READER, 'common')!));
    expect(plan).toContain('"Relation Name":"articles"');
    expect(plan).not.toContain('"Node Type":"Seq Scan"');
    expect(plan).not.toContain('"Node Type":"Hash Join"');
  });

  it('has words answered by each window: the last 1,000 seq, a window sized by its rate, and all', () => {
    // The reader's articles in the last `span` seq: three of every four rows (the other reader has the fourth).
    const matches = (word: string, span: number) =>
      Array.from({ length: Math.min(ARTICLES, (span * 3) / 4) }, (_, i) => wordsOf(ARTICLES - 1 - i)).filter(
        (words) => words.split(' ').includes(word),
      ).length;
    const newest = (ARTICLES * 4) / 3;
    // lectern_search_newest's choice (migrations/0008): the next window holds 500 at the first's rate with a
    // quarter to spare, unless its index range and rows cost more than reading every match.
    const windowAfterFirst = (word: string) => {
      const rate = matches(word, 1_000) / 1_000;
      const span = Math.ceil((500 * 1.25) / rate);
      return span < newest && span * (0.15 + rate) < newest * rate ? span : undefined;
    };
    expect(matches('common', 1_000)).toBeGreaterThanOrEqual(500);
    expect(matches('third', 1_000)).toBeLessThan(500);
    const sized = windowAfterFirst('third');
    expect(sized).toBeDefined();
    expect(matches('third', sized!)).toBeGreaterThanOrEqual(500);
    for (const word of ['often', 'middle', 'seldom']) {
      expect(matches(word, 1_000)).toBeLessThan(500);
      expect(windowAfterFirst(word)).toBeUndefined();
    }
  });
});
