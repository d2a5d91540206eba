// The jobs behind an import: writing its rows as articles, then fetching their pages.
import type { ServiceContext } from '../services/context';
import {
  FETCH_IMPORTED_ARTICLE_JOB,
  IMPORT_ROWS_JOB,
  settleImport,
  writeImportBatch,
} from '../services/imports';
import { fetchImportedArticle } from './fetch-imported-article';
import type { JobRunner } from './job-runner';

export function registerImportJobs(queue: JobRunner, ctx: ServiceContext): void {
  queue.handle(IMPORT_ROWS_JOB, async (job) => {
    const { importId } = JSON.parse(job.payload) as { importId: string };
    while (await writeImportBatch(ctx.db, job.user_id, importId)) {
      // Let requests in between batches: one batch holds SQLite's writer for a few milliseconds only.
      await new Promise((resolve) => setImmediate(resolve));
      queue.wake();
    }
  });
  queue.handle(FETCH_IMPORTED_ARTICLE_JOB, fetchImportedArticle(ctx));
  queue.afterEachJob(async (job) => {
    if (job.group_id) await settleImport(ctx.db, job.group_id);
  });
}
