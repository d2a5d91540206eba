// Search on PostgreSQL at each library size (issues 15 and 16): the same realistic library as the SQLite
// server bench (bench/support/bench-library.ts, same seed), the same 300 queries drawn the same way, timed on
// the database side through the SQL the server runs (db/postgres/search.ts, searchArticleIds). Also the cost
// of saving one article (its search vector computed by the trigger, the GIN index updated) at each size.
// A throwaway cluster (testing/postgres-cluster.ts) holds the library; it is deleted at the end.
// Run: npx tsx bench/postgres-search-bench.ts (BENCH_SIZES=5000 for one size), or
//      npm run bench -- --only postgres-search --sizes 5000,20000,50000
import { sql } from 'drizzle-orm';
import type { Db } from '../sync-server/src/db/database';
import { openPostgres } from '../sync-server/src/db/postgres/connection';
import type { articles } from '../sync-server/src/db/postgres/schema';
import { searchArticleIds } from '../sync-server/src/db/postgres/search';
import { createTestDatabase, stopTestCluster } from '../sync-server/src/testing/postgres-cluster';
import { benchArticles, benchSearchQueries, type BenchArticle } from './support/bench-library';
import { anyMissed, benchSizes, recordFigure } from './support/bench-table';
import { percentile } from './support/server-process';
import { useBenchPostgres } from './support/bench-engines';

/** server-bench.ts's library and query seeds: the same articles, the same queries. */
const LIBRARY_SEED = 16;
const QUERY_SEED = 99;
const SEARCHES = 300;
const WARM_UP_SEARCHES = 30;
/** Rows per INSERT: about 5 MB of text at the median body, well under the 65,535 parameters of a query. */
const SEED_ROWS = 100;
const SAVES = 40;
const READER = 'bench-reader';
/** Another reader with a few articles that share the library's words: only the caller's rows answer. */
const OTHER_READER = 'bench-other-reader';
const SEARCH_P95_MS = 15;

type ArticleRow = typeof articles.$inferInsert;

function rowOf(userId: string, article: BenchArticle, id = article.id): ArticleRow {
  return {
    id,
    userId,
    url: article.url,
    normalizedUrl: article.url,
    title: article.title,
    description: article.description,
    author: article.author,
    imageUrl: article.image_url,
    articleType: 'web',
    excerpt: article.description.slice(0, 200),
    publishedDate: article.created_at.slice(0, 10),
    siteName: article.site_name,
    language: article.language,
    readingTime: article.reading_time,
    isRead: article.is_read,
    isFavorite: article.is_favorite,
    isArchived: article.is_archived,
    readingProgress: article.is_read ? 1 : 0,
    createdAt: article.created_at,
    updatedAt: article.created_at,
    tagsText: article.tags.join(' '),
    content: article.content,
    contentText: article.content_text,
  };
}

/**
 * Writes the next articles until the library holds `count`, many rows per INSERT (the search vectors are
 * computed by the same trigger as a save's), outside the server's transactions: nothing reads the change
 * feed here. Answers the seconds it took.
 */
async function growTo(db: Db, articles: Generator<BenchArticle>, from: number, count: number) {
  const { articles: table } = db.tables;
  const started = performance.now();
  for (let saved = from; saved < count;) {
    const rows: ArticleRow[] = [];
    for (; saved < count && rows.length < SEED_ROWS; saved += 1)
      rows.push(rowOf(READER, articles.next().value as BenchArticle));
    await db.orm.insert(table).values(rows);
    if (saved % 5_000 === 0) console.log(`      ${saved.toLocaleString('en')} articles seeded`);
  }
  return (performance.now() - started) / 1000;
}

async function searchTimes(db: Db, asked: readonly string[]) {
  for (const query of asked.slice(0, WARM_UP_SEARCHES)) await searchArticleIds(db, READER, query);
  const latencies: number[] = [];
  let found = 0;
  for (const query of asked) {
    const started = performance.now();
    const ids = await searchArticleIds(db, READER, query);
    latencies.push(performance.now() - started);
    found += ids.length;
  }
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), found };
}

/**
 * Saving one article in one transaction (its written rows noted and its reader's feed lock taken; this
 * database is opened without a feed recorder, so no change_log row is written), then deleting it: the
 * median of SAVES saves of the library's typical 25 KB articles.
 */
async function saveTimes(db: Db, sample: readonly BenchArticle[], size: number) {
  const { articles: table } = db.tables;
  const latencies: number[] = [];
  for (const [n, article] of sample.entries()) {
    const id = `save-${size}-${n}`;
    const started = performance.now();
    await db.transaction((tx) => tx.orm.insert(table).values(rowOf(READER, article, id)));
    latencies.push(performance.now() - started);
    await db.run(sql`DELETE FROM articles WHERE id = ${id}`);
  }
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

async function main() {
  useBenchPostgres();
  const db = await openPostgres(await createTestDatabase());
  try {
    const { users, articles: table } = db.tables;
    const at = new Date().toISOString();
    await db.orm.insert(users).values([
      { id: READER, email: 'reader@example.com', createdAt: at },
      { id: OTHER_READER, email: 'other@example.com', createdAt: at },
    ]);
    // The other reader's articles are drawn from the same stream (a different seed's ids would do too).
    const others = benchArticles(LIBRARY_SEED + 1000);
    await db.orm
      .insert(table)
      .values(Array.from({ length: 200 }, () => rowOf(OTHER_READER, others.next().value as BenchArticle)));
    // Articles for the save timing: near the median size, not part of the library.
    const saveSample: BenchArticle[] = [];
    while (saveSample.length < SAVES) {
      const article = others.next().value as BenchArticle;
      if (Math.abs(article.content.length - 25 * 1024) < 5 * 1024) saveSample.push(article);
    }

    const library = benchArticles(LIBRARY_SEED);
    const asked = benchSearchQueries(LIBRARY_SEED, QUERY_SEED, SEARCHES);
    let saved = 0;
    for (const size of benchSizes()) {
      const seconds = await growTo(db, library, saved, size);
      const added = size - saved;
      saved = size;
      // What autovacuum does after a bulk load: statistics for the planner and the tables' visibility maps.
      // The GIN index (on article_search_vectors since migration 0011) keeps no pending list since 0012.
      const vacuumStarted = performance.now();
      await db.run(sql`VACUUM ANALYZE articles, article_search_vectors`);
      console.log(
        `      seeded to ${size.toLocaleString('en')} in ${seconds.toFixed(0)} s, VACUUM ANALYZE ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s`,
      );
      const search = await searchTimes(db, asked);
      recordFigure({
        figure: `PostgreSQL search p50, database side (${SEARCHES} queries)`,
        size,
        value: `${search.p50.toFixed(1)} ms`,
        target: '-',
        ok: true,
        side: 'server',
      });
      recordFigure({
        figure: `PostgreSQL search p95, database side (${SEARCHES} queries)`,
        size,
        value: `${search.p95.toFixed(1)} ms`,
        target: `<= ${SEARCH_P95_MS} ms`,
        ok: search.p95 <= SEARCH_P95_MS,
        side: 'server',
      });
      console.log(`      ${search.found} hits`);
      const save = await saveTimes(db, saveSample, size);
      recordFigure({
        figure: 'PostgreSQL save of a 25 KB article p50 (search vector + GIN)',
        size,
        value: `${save.p50.toFixed(1)} ms`,
        target: '-',
        ok: true,
        side: 'server',
      });
      recordFigure({
        figure: `PostgreSQL seeding (${SEED_ROWS} articles per INSERT)`,
        size,
        value: `${((seconds * 1000) / Math.max(1, added)).toFixed(1)} ms/article`,
        target: '-',
        ok: true,
        side: 'server',
      });
    }
  } finally {
    await db.close();
    await stopTestCluster();
  }
}

await main();
process.exit(anyMissed() ? 1 : 0);
