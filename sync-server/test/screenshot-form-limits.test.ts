// The screenshot form's `tags` field follows the JSON body's rule (50 names of at most 100 characters), and
// an overlong field is refused while it streams in: a form of ~150k tags used to freeze the server.
import { ARTICLE_TAGS_MAX, SERVER_ERRORS, TAG_NAME_MAX_LENGTH } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type ApiClient } from './support/api-client';
import { startWorld, type World } from './support/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

/** A blank 24×16 PNG: the form is refused before anyone looks at it. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAAGElEQVR4nGP4TyXAMGrQqEGjBo0aRBkAAFn2e72iNxYTAAAAAElFTkSuQmCC',
  'base64',
);

function upload(client: ApiClient, tags: string, tagsFirst = true) {
  const form = new FormData();
  if (tagsFirst) form.append('tags', tags);
  form.append('screenshot', new Blob([PNG], { type: 'image/png' }), 'shot.png');
  if (!tagsFirst) form.append('tags', tags);
  return client.request('POST', '/articles/screenshot', { body: form });
}

async function expectNothingStored(client: ApiClient) {
  expect((await client.get('/articles')).body.articles).toEqual([]);
  expect((await client.get('/tags')).body.tags).toEqual([]);
}

describe('the screenshot form’s tags', () => {
  it('refuses more than 50 tags with 400 and stores nothing', async () => {
    const { client } = await signUp(world.api);
    const tags = Array.from({ length: ARTICLE_TAGS_MAX + 1 }, (_, i) => `tag${i}`).join(',');
    const answer = await upload(client, tags);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: SERVER_ERRORS.tooManyTags });
    expect((await upload(client, tags, false)).status).toBe(400);
    await expectNothingStored(client);
  });

  it('refuses a tag over 100 characters with 400 and stores nothing', async () => {
    const { client } = await signUp(world.api);
    const answer = await upload(client, `fine, ${'x'.repeat(TAG_NAME_MAX_LENGTH + 1)}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: SERVER_ERRORS.tooManyTags });
    await expectNothingStored(client);
  });

  it('counts tags as the JSON body does: after trimming, empty pieces and repeats dropped', async () => {
    const { client } = await signUp(world.api);
    // 50 distinct names, each written twice and with empty pieces: within the rule.
    const names = Array.from({ length: ARTICLE_TAGS_MAX }, (_, i) => `t${i}`);
    const tags = [...names, ...names, ' ', ''].join(' , ');
    const answer = await upload(client, tags);
    // Accepted by the tag rule; the blank image then has no text to read, which is its own refusal.
    expect(answer.body).not.toEqual({ error: SERVER_ERRORS.tooManyTags });
  });

  it('cuts a huge field off with 413 while GET /api/health keeps answering at once', async () => {
    const { client } = await signUp(world.api);
    const attack = Array.from({ length: 150_000 }, (_, i) => `t${i}`).join(',');
    const started = Date.now();
    const attackAnswer = upload(client, attack).then((answer) => ({ answer, ms: Date.now() - started }));
    const healthTimes: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const before = Date.now();
      expect((await world.api.get('/health')).status).toBe(200);
      healthTimes.push(Date.now() - before);
    }
    const { answer, ms } = await attackAnswer;
    console.log(`150k-tag form: answered ${answer.status} in ${ms} ms; health ${healthTimes.join(', ')} ms`);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: 'A form field is longer than 16 KB' });
    expect(ms).toBeLessThan(5_000);
    expect(Math.max(...healthTimes)).toBeLessThan(1_000);
    await expectNothingStored(client);
  }, 60_000);
});
