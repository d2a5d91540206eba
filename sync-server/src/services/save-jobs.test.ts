// A save by URL as a job, on the server's own context on the run's engine: the request answers what the
// job wrote; a refusal is answered as the request would have answered it. A job run again after its
// process died: save-jobs-restart.test.ts.
import { newId, PAGE_HTML_MAX_BYTES } from '@lectern/shared-schema';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { contextPerTest } from '../testing/service-context';
import { createArticle } from './articles';
import { SAVE_ARTICLE_JOB, saveArticleJob } from './save-jobs';

const t = contextPerTest(['ann']);

const PAGE = `<html><head><title>Lighthouse keepers</title></head><body><article>${'<p>This paragraph about lighthouse keepers is long enough for Readability to treat it as real prose, with several clauses, commas and full sentences.</p>'.repeat(4)}</article></body></html>`;

beforeEach(async () => {
  t.ctx.jobs.handle(SAVE_ARTICLE_JOB, saveArticleJob(t.ctx), { waitedOn: true });
  await t.ctx.jobs.start();
});

async function articleCount(id: string): Promise<number> {
  const row = await t.ctx.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM articles WHERE id = ${id}`);
  return Number(row?.n ?? 0);
}

async function jobOf(id: string) {
  return await t.ctx.db.get<{ id: number; status: string; payload: string; attempts: number }>(
    sql`SELECT id, status, payload, attempts FROM jobs WHERE kind = ${SAVE_ARTICLE_JOB} AND key = ${`ann/${id}`}`,
  );
}

describe('a save by URL as a job', () => {
  it('answers the article its job wrote, and keeps the outcome (not the page sent) in the job', async () => {
    const id = newId();
    const saved = await createArticle(t.ctx, 'ann', {
      id,
      url: 'https://keepers.example/story',
      html: PAGE,
      tags: ['sea'],
    });
    expect(saved.alreadySaved).toBe(false);
    expect(saved.article).toMatchObject({ id, title: 'Lighthouse keepers', tags: ['sea'] });
    const job = await jobOf(id);
    expect(job?.status).toBe('done');
    const payload = JSON.parse(job?.payload ?? '{}') as Record<string, unknown>;
    expect(payload.html).toBeUndefined();
    expect(payload.outcome).toMatchObject({ alreadySaved: false, article: { id } });
  });

  it('answers a refusal as the request did, stores nothing, and fetches anew when the save is retried', async () => {
    const id = newId();
    await expect(
      createArticle(t.ctx, 'ann', { id, url: 'http://127.0.0.1:9/private' }),
    ).rejects.toMatchObject({ statusCode: 400 });
    expect(await articleCount(id)).toBe(0);
    expect(JSON.parse((await jobOf(id))?.payload ?? '{}')).toMatchObject({ outcome: { status: 400 } });
    // The same save again (same id) runs the job again rather than answer the earlier refusal.
    const saved = await createArticle(t.ctx, 'ann', { id, url: 'https://keepers.example/late', html: PAGE });
    expect(saved.article.id).toBe(id);
    expect(PAGE.length).toBeLessThan(PAGE_HTML_MAX_BYTES);
  });
});
