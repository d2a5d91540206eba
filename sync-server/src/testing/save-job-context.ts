// The server's context for tests of saves by URL as jobs (services/save-jobs*.test.ts): the save job
// registered and the queue started before each test, a page Readability reads as an article, and what the
// tables hold of an article and of its job.
import { sql } from 'drizzle-orm';
import { asNumber, selectFirst } from '../db/typed-select';
import { beforeEach } from 'vitest';
import { SAVE_ARTICLE_JOB, saveArticleJob } from '../services/save-jobs';
import { contextPerTest } from './service-context';

/** A page sent with a save, long enough for Readability to treat as an article. */
export const KEEPERS_PAGE = `<html><head><title>Lighthouse keepers</title></head><body><article>${'<p>This paragraph about lighthouse keepers is long enough for Readability to treat it as real prose, with several clauses, commas and full sentences.</p>'.repeat(4)}</article></body></html>`;

export function saveJobContextPerTest(users: readonly string[]) {
  const t = contextPerTest(users);
  beforeEach(async () => {
    t.ctx.jobs.handle(SAVE_ARTICLE_JOB, saveArticleJob(t.ctx), { waitedOn: true });
    await t.ctx.jobs.start();
  });
  return {
    t,
    /** How many rows hold the article of this id. */
    async articleCount(id: string): Promise<number> {
      const row = await selectFirst(
        t.ctx.db,
        { n: asNumber(sql`count(*)`) },
        sql`FROM articles WHERE id = ${id}`,
      );
      return row?.n ?? 0;
    },
    /** The save job of `userId`'s article of this id. */
    async jobOf(id: string, userId = users[0]) {
      const { jobs } = t.ctx.db.tables;
      return await selectFirst(
        t.ctx.db,
        { id: jobs.id, status: jobs.status, payload: jobs.payload, attempts: jobs.attempts },
        sql`FROM jobs WHERE kind = ${SAVE_ARTICLE_JOB} AND key = ${`${userId}/${id}`}`,
      );
    },
  };
}
