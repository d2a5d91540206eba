// A save by URL as a job run again after its process died (after writing its article, before the job was
// marked done, or in the middle) writes its article once. SQLite's in-process queue: a restart takes up
// the jobs left running. On PostgreSQL pg-boss hands a dead node's job to another once it expires, which
// nodes/node-wiring.test.ts proves with two nodes.
import { newId } from '@lectern/shared-schema';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { KEEPERS_PAGE, saveJobContextPerTest } from '../testing/save-job-context';
import { createArticle } from './articles';
import { SAVE_ARTICLE_JOB } from './save-jobs';

const { t, articleCount, jobOf } = saveJobContextPerTest(['ann']);
const PAGE = KEEPERS_PAGE;

describe('a save by URL as a job', () => {
  it('writes its article once when the job runs again after its process died (after writing, or mid-job)', async () => {
    const id = newId();
    await createArticle(t.ctx, 'ann', { id, url: 'https://keepers.example/once', html: PAGE });
    const job = await jobOf(id);
    // The process died after the article's transaction committed, before the job was marked done: the next
    // start finds it `running` and runs it again.
    await t.ctx.jobs.stop();
    await t.ctx.db.transaction((tx) => tx.run(sql`UPDATE jobs SET status = 'running' WHERE id = ${job?.id}`));
    await t.ctx.jobs.start();
    await t.ctx.jobs.idle();
    expect(await articleCount(id)).toBe(1);
    expect(await jobOf(id)).toMatchObject({ status: 'done', attempts: 2 });

    // A job whose process died mid-job (claimed, nothing written): taken up again on start, written once.
    const other = newId();
    await t.ctx.jobs.stop();
    await t.ctx.db.transaction(async (tx) => {
      await t.ctx.jobs.enqueue(tx, {
        kind: SAVE_ARTICLE_JOB,
        key: `ann/${other}`,
        userId: 'ann',
        payload: { articleId: other, url: 'https://keepers.example/mid', tags: [], html: PAGE },
      });
      await tx.run(sql`UPDATE jobs SET status = 'running', attempts = 1 WHERE key = ${`ann/${other}`}`);
    });
    await t.ctx.jobs.start();
    await t.ctx.jobs.idle();
    expect(await articleCount(other)).toBe(1);
    // A retry of that save (the device never had its answer) answers the article the job wrote.
    const retried = await createArticle(t.ctx, 'ann', {
      id: other,
      url: 'https://keepers.example/mid',
      html: PAGE,
    });
    expect(retried.article.id).toBe(other);
    expect(await articleCount(other)).toBe(1);
  });
});
