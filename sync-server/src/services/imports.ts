// Imports: an uploaded export becomes an import row and its parsed rows; a job writes them as articles in
// batches, other jobs fetch their pages. Progress is counted from the rows and jobs themselves.
import {
  newId,
  SERVER_ERRORS,
  type Article,
  type ImportSource,
  type ImportStatus,
  type ImportView,
} from '@lectern/shared-schema';
import { importTotal, type ImportRowFailure } from '@lectern/shared-schema/import-files';
import type { Queryable } from '../db/connection';
import { statementSlices } from '../db/statement-slices';
import { asNumber, rowExists, select } from '../db/typed-select';
import { ImportBusyError, prepareImportOffThread } from '../imports/import-pool';
import type { PreparedItem } from '../imports/prepare-import';
import { enqueueJob, enqueueJobs, requeueJob, type JobToQueue } from '../jobs/job-queue';
import { nowIso } from './change-log';
import { getArticle } from './article-rows';
import type { ServiceContext } from './context';
import { badRequest, notFound, tooManyRequests } from './errors';
import { startImportBatch, writeImportedRow } from './imported-articles';
import { and, desc, eq, sql } from 'drizzle-orm';

export type { ImportStatus, ImportView };

export const IMPORT_ROWS_JOB = 'import_rows';
export const FETCH_IMPORTED_ARTICLE_JOB = 'fetch_imported_article';

/** What one batch writes at most (see writeImportBatch): quick to write, never long enough to be noticed. */
const BATCH_MAX_ROWS = 250;
const BATCH_MAX_WRITES = 2_000;
const BATCH_MAX_BYTES = 1024 * 1024;
/** Failed rows an import answers with at most (the counts stay exact). */
const FAILURES_SHOWN = 1000;

/** An import as its table holds it (selectImports): the API's view without the pages' progress and the failures. */
type ImportRow = Awaited<ReturnType<typeof selectImports>>[number];

/** An export file as the upload form carries it: the bytes, and the app it came from if the reader said. */
export interface ImportUpload {
  bytes: Buffer;
  source?: ImportSource | undefined;
}

/**
 * POST /imports: the file is read (`readUpload`) only once one of the import slots is held, so one file per
 * reader and a bounded number on the server are in memory at a time, and the check that none of the
 * reader's imports is still being written can't be raced by a second upload. Parsed on a worker thread,
 * stored, and its job started; answers at once (202).
 */
export async function uploadImport(
  ctx: ServiceContext,
  userId: string,
  readUpload: () => Promise<ImportUpload>,
): Promise<ImportView> {
  const started = await ctx.limits.imports.run(userId, async () => {
    // One import written at a time per reader: a second file waits until the first is in.
    if (await importInProgress(ctx.db, userId)) throw tooManyRequests(SERVER_ERRORS.importRunning, 30);
    const upload = await readUpload();
    let prepared;
    try {
      prepared = await prepareImportOffThread(upload.bytes, upload.source);
    } catch (error) {
      if (error instanceof ImportBusyError) throw tooManyRequests(SERVER_ERRORS.serverBusy, 10);
      throw error;
    }
    if (!prepared.ok) throw badRequest(prepared.error);
    return await startImport(ctx.db, userId, prepared);
  });
  ctx.jobs.wake();
  return started;
}

/**
 * Stores the parsed file and queues the job that writes it. Requests come through `uploadImport`, which holds
 * the upload slot; this is exported for the tests that store a parsed file directly.
 */
export async function startImport(
  db: Queryable,
  userId: string,
  parsed: { source: ImportSource; items: PreparedItem[]; failures: ImportRowFailure[] },
): Promise<ImportView> {
  const id = newId();
  await db.transaction(async (tx) => {
    await tx.run(sql`INSERT INTO imports (id, user_id, source, status, total, failed, created_at)
       VALUES (${id}, ${userId}, ${parsed.source}, 'queued', ${importTotal(parsed)}, ${parsed.failures.length}, ${nowIso()})`);
    for (const row of parsed.failures)
      await tx.run(
        sql`INSERT INTO import_failures (import_id, line, url, reason) VALUES (${id}, ${row.line}, NULL, ${row.reason})`,
      );
    const { importRows } = tx.tables;
    const rows = parsed.items.map((item, position) => ({
      importId: id,
      position,
      data: JSON.stringify(item),
    }));
    for (const slice of statementSlices(rows, 3)) await tx.orm.insert(importRows).values(slice);
    await enqueueJob(tx, { kind: IMPORT_ROWS_JOB, key: id, userId, groupId: id, payload: { importId: id } });
  });
  return await getImport(db, userId, id);
}

/**
 * Writes the next batch of an import's rows as articles, in one transaction with their removal, so a
 * restart goes on with exactly the rows not yet written. A batch ends after BATCH_MAX_ROWS rows, or once its
 * rows hold BATCH_MAX_WRITES inserts (an article, its tags, its highlights) or BATCH_MAX_BYTES of carried
 * bodies, so that no transaction holds SQLite's writer (and the event loop) for long. Answers false once
 * none is left.
 */
export async function writeImportBatch(db: Queryable, userId: string, importId: string): Promise<boolean> {
  return await db.transaction(async (tx) => {
    await tx.run(sql`UPDATE imports SET status = 'running' WHERE id = ${importId} AND status = 'queued'`);
    const { importRows } = tx.tables;
    const rows = await select(
      tx,
      { position: importRows.position, data: importRows.data },
      sql`FROM import_rows WHERE import_id = ${importId} ORDER BY position LIMIT ${BATCH_MAX_ROWS}`,
    );
    if (rows.length === 0) return false;
    let imported = 0;
    let skipped = 0;
    let writes = 0;
    let bytes = 0;
    // The rows this batch takes: up to BATCH_MAX_WRITES inserts or BATCH_MAX_BYTES (always one).
    const items: PreparedItem[] = [];
    let lastPosition = rows[0]!.position;
    for (const row of rows) {
      if (writes >= BATCH_MAX_WRITES || bytes >= BATCH_MAX_BYTES) break;
      lastPosition = row.position;
      const item = JSON.parse(row.data) as PreparedItem;
      writes += 1 + item.tags.length + item.highlights.length;
      bytes += row.data.length;
      items.push(item);
    }
    const batch = await startImportBatch(tx, userId, items);
    const fetches: JobToQueue[] = [];
    for (const item of items) {
      const result = await writeImportedRow(tx, userId, item, batch);
      if (result.kind === 'skipped') {
        skipped += 1;
        continue;
      }
      imported += 1;
      if (result.needsFetch)
        fetches.push({
          kind: FETCH_IMPORTED_ARTICLE_JOB,
          key: result.articleId,
          userId,
          groupId: importId,
          payload: { articleId: result.articleId },
        });
    }
    await enqueueJobs(tx, fetches);
    await tx.run(
      sql`DELETE FROM import_rows WHERE import_id = ${importId} AND position BETWEEN ${rows[0]!.position} AND ${lastPosition}`,
    );
    await tx.run(
      sql`UPDATE imports SET imported = imported + ${imported}, skipped = skipped + ${skipped} WHERE id = ${importId}`,
    );
    return true;
  });
}

/** Marks the import done once every row is written and every page job has ended. */
export async function settleImport(db: Queryable, importId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await rowExists(tx, sql`FROM import_rows WHERE import_id = ${importId} LIMIT 1`);
    const open = await rowExists(
      tx,
      sql`FROM jobs WHERE group_id = ${importId} AND status IN ('queued', 'running') LIMIT 1`,
    );
    if (rows || open) return;
    await tx.run(
      sql`UPDATE imports SET status = 'done', finished_at = ${nowIso()} WHERE id = ${importId} AND status IN ('queued', 'running')`,
    );
  });
}

async function toView(db: Queryable, row: ImportRow, withFailures: boolean): Promise<ImportView> {
  const { jobs, importFailures } = db.tables;
  const pages = await select(
    db,
    { status: jobs.status, n: asNumber(sql`count(*)`) },
    sql`FROM jobs WHERE group_id = ${row.id} AND kind = ${FETCH_IMPORTED_ARTICLE_JOB} GROUP BY status`,
  );
  const count = (status: string) => pages.find((page) => page.status === status)?.n ?? 0;
  const view: ImportView = {
    ...row,
    pages_total: pages.reduce((sum, page) => sum + page.n, 0),
    pages_fetched: count('done'),
    pages_failed: count('failed'),
  };
  if (withFailures && (row.status === 'done' || row.status === 'failed')) {
    view.failures = await select(
      db,
      { line: importFailures.line, url: importFailures.url, reason: importFailures.reason },
      sql`FROM import_failures WHERE import_id = ${row.id} ORDER BY line LIMIT ${FAILURES_SHOWN}`,
    );
  }
  return view;
}

/** An import of this reader whose rows are still being written (its pages may go on being fetched). */
export async function importInProgress(db: Queryable, userId: string): Promise<boolean> {
  return await rowExists(
    db,
    sql`FROM imports i WHERE i.user_id = ${userId}
         AND EXISTS (SELECT 1 FROM import_rows r WHERE r.import_id = i.id) LIMIT 1`,
  );
}

/** An import's own columns, as the API names them. */
function selectImports(db: Queryable) {
  const { imports } = db.tables;
  return db.orm
    .select({
      id: imports.id,
      source: imports.source,
      status: imports.status,
      total: imports.total,
      imported: imports.imported,
      skipped: imports.skipped,
      failed: imports.failed,
      created_at: imports.createdAt,
      finished_at: imports.finishedAt,
    })
    .from(imports);
}

export async function getImport(db: Queryable, userId: string, importId: string): Promise<ImportView> {
  const { imports } = db.tables;
  const [row] = await selectImports(db).where(and(eq(imports.id, importId), eq(imports.userId, userId)));
  if (!row) throw notFound(SERVER_ERRORS.importNotFound);
  return await toView(db, row, true);
}

export async function listImports(db: Queryable, userId: string): Promise<ImportView[]> {
  const { imports } = db.tables;
  const rows = await selectImports(db)
    .where(eq(imports.userId, userId))
    .orderBy(desc(imports.createdAt))
    .limit(50);
  const views: ImportView[] = [];
  for (const row of rows) views.push(await toView(db, row, false));
  return views;
}

/** Retry on an imported article whose page could not be fetched: it goes back to pending and is fetched again. */
export async function retryArticleFetch(
  ctx: ServiceContext,
  userId: string,
  articleId: string,
): Promise<Article> {
  const article = await requeueArticleFetch(ctx.db, userId, articleId);
  // Its job runs now rather than at the queue's next look.
  ctx.jobs.wake();
  return article;
}

async function requeueArticleFetch(db: Queryable, userId: string, articleId: string): Promise<Article> {
  return await db.transaction(async (tx) => {
    await getArticle(tx, userId, articleId);
    const { articles } = tx.tables;
    const [row] = await tx.orm
      .select({ fetchState: articles.fetchState })
      .from(articles)
      .where(eq(articles.id, articleId));
    if (row?.fetchState !== 'failed') throw badRequest(SERVER_ERRORS.articleNotPendingFetch);
    await tx.orm
      .update(articles)
      .set({ fetchState: 'pending', fetchError: null })
      .where(eq(articles.id, articleId));
    await requeueJob(tx, FETCH_IMPORTED_ARTICLE_JOB, articleId);
    await enqueueJob(tx, {
      kind: FETCH_IMPORTED_ARTICLE_JOB,
      key: articleId,
      userId,
      payload: { articleId },
    });
    return await getArticle(tx, userId, articleId);
  });
}
