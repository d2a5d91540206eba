// Libraries for the benchmarks, written straight into the server's SQLite file through its own services
// (far faster than the API), before the server process starts on that folder. seedArticles writes plain
// libraries of made-up prose of one size; the realistic library of issue 16 (bodies of 25 KB median, skewed
// tags, highlights, ten years of dates) is drawn in bench-library.ts and written inside seedDatabase too.
import { newId } from '@lectern/shared-schema';
import { join } from 'node:path';
import { openSqlite, type Db, type Queryable, type SqliteDb } from '../../sync-server/src/db/connection';
import { insertArticle } from '../../sync-server/src/services/articles';
import { ARCHIVE_IMAGES_JOB, BACKFILL_MARKER } from '../../sync-server/src/services/image-archive';
import { and, eq } from 'drizzle-orm';
import { prose } from './seed-text';

// A benchmark's library is one the server has kept for a while: its images are settled (images_pending
// false, no archive job queued, the one-time backfill done), so no background archiving of unreachable
// made-up image addresses runs beside the figures, nor rewrites articles into the change feed while they
// are measured (a device would pull again every few seconds: sync/sync-engine.ts, PENDING_FETCH_SYNC_MS).

/** Records the one-time image backfill as done (at `doneAt`), so the server's start doesn't queue it. */
export async function markImageBackfillDone(db: Db, doneAt: string): Promise<void> {
  await db.transaction((tx) =>
    tx.orm.insert(tx.tables.serverMarkers).values({ name: BACKFILL_MARKER, doneAt }).onConflictDoNothing(),
  );
}

/** An article just written with its images settled: nothing pending, no archive job queued. */
export async function settleImages(tx: Queryable, articleId: string): Promise<void> {
  const { articles, jobs } = tx.tables;
  await tx.orm.update(articles).set({ imagesPending: false }).where(eq(articles.id, articleId));
  await tx.orm.delete(jobs).where(and(eq(jobs.kind, ARCHIVE_IMAGES_JOB), eq(jobs.key, articleId)));
}

/**
 * Opens the database in `dataDir`, lets `seed` fill it, and leaves it checkpointed and closed, so the
 * server starts on one file.
 */
export async function seedDatabase<T>(dataDir: string, seed: (db: SqliteDb) => Promise<T> | T): Promise<T> {
  const db = openSqlite(join(dataDir, 'lectern.sqlite'));
  // Seeding only: a power cut here loses nothing worth keeping, and FULL would fsync every batch.
  db.sqlite.pragma('synchronous = OFF');
  try {
    return await seed(db);
  } finally {
    db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    await db.close();
  }
}

export interface SeedArticlesOptions {
  count: number;
  sample: () => string;
  /** Bytes of made-up prose for each field. */
  sizes: { text: number; title: number; description: number; author: number };
  /** Articles per transaction (all in one by default). */
  batch?: number;
  imageUrl?: (index: number) => string | null;
  tags?: (index: number) => string[];
  readingTime?: (index: number, text: string) => number;
  /** Runs in the same transaction right after each article is written (marks it read, adds a highlight…). */
  afterEach?: (articleId: string, index: number, tx: Queryable) => Promise<void> | void;
}

/** Writes `count` web articles of made-up prose for the user, https://example.com/articles/0, /1, …; answers their ids. */
export async function seedArticles(db: Db, userId: string, options: SeedArticlesOptions): Promise<string[]> {
  const { count, sample, sizes } = options;
  const batch = options.batch ?? count;
  const ids: string[] = [];
  await markImageBackfillDone(db, new Date().toISOString());
  for (let start = 0; start < count; start += batch) {
    await db.transaction(async (tx) => {
      for (let i = start; i < Math.min(count, start + batch); i += 1) {
        const text = prose(sample, sizes.text);
        const { article } = await insertArticle(
          tx,
          userId,
          {
            id: newId(),
            url: `https://example.com/articles/${i}`,
            title: prose(sample, sizes.title),
            description: prose(sample, sizes.description),
            author: prose(sample, sizes.author),
            image_url: options.imageUrl?.(i) ?? null,
            screenshot_url: null,
            article_type: 'web',
            content: `<p>${text}</p>`,
            content_text: text,
            excerpt: null,
            published_date: null,
            site_name: null,
            language: 'en',
            reading_time:
              options.readingTime?.(i, text) ?? Math.max(1, Math.round(text.split(' ').length / 200)),
          },
          options.tags?.(i) ?? [],
        );
        await settleImages(tx, article.id);
        ids.push(article.id);
        await options.afterEach?.(article.id, i, tx);
      }
    });
  }
  return ids;
}
