// A save by URL as a job, on the server's own context on the run's engine: the request answers what the
// job wrote; a refusal is answered as the request would have answered it. A job run again after its
// process died: save-jobs-restart.test.ts.
import { newId, PAGE_HTML_MAX_BYTES } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { KEEPERS_PAGE, saveJobContextPerTest } from '../testing/save-job-context';
import { createArticle } from './articles';

const { t, articleCount, jobOf } = saveJobContextPerTest(['ann']);
const PAGE = KEEPERS_PAGE;

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
