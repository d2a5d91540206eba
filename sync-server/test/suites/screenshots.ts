import { SCREENSHOT_URL_SCHEME } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTextImageRenderer, type TextImageRenderer } from '../fixtures/text-image-renderer';
import { signUp, type ApiClient } from '../support/api-client';
import { startTestFileStore, type TestFileStore, type TestFileStoreKind } from '../support/test-file-store';
import { startWorld, type World } from '../support/world';

let world: World;
/** The data folder, or S3 (screenshots-s3.test.ts). */
let files: TestFileStore;
let renderer: TextImageRenderer;
let screenshot: Buffer;

/** The screenshots tests, on a server keeping its files in the data folder or in S3. */
export function describeScreenshots(store: TestFileStoreKind): void {
  beforeAll(async () => {
    files = await startTestFileStore(store);
    world = await startWorld(files.env);
    renderer = await startTextImageRenderer();
    screenshot = await renderer.render({
      width: 600,
      height: 400,
      html: `<div style="padding:24px;font-size:26px;line-height:1.5">
      <h1 style="font-size:34px">Quiet Reading Habits</h1>
      <p>Reading slowly in the morning builds a lasting habit.</p>
      <p>Keep a notebook for the passages worth remembering.</p></div>`,
    });
  }, 120_000);
  afterAll(async () => {
    await renderer.close();
    await world.close();
    await files.close();
  });

  function form(parts: {
    image?: Buffer;
    type?: string;
    name?: string;
    tags?: string;
    id?: string;
  }): FormData {
    const data = new FormData();
    if (parts.tags !== undefined) data.append('tags', parts.tags);
    if (parts.id !== undefined) data.append('id', parts.id);
    if (parts.image) {
      data.append(
        parts.name ?? 'screenshot',
        new Blob([parts.image], { type: parts.type ?? 'image/png' }),
        'shot.png',
      );
    }
    return data;
  }

  const upload = (client: ApiClient, parts: Parameters<typeof form>[0]) =>
    client.request('POST', '/articles/screenshot', { body: form(parts) });

  describe('POST /api/articles/screenshot', () => {
    it('reads the text by OCR into a screenshot article, kept for its owner only', async () => {
      const owner = await signUp(world.api);
      const answer = await upload(owner.client, { image: screenshot, tags: 'habits, reading , ' });
      expect(answer.status).toBe(201);
      const article = answer.body.article;
      expect(article).toMatchObject({
        article_type: 'screenshot',
        title: 'Quiet Reading Habits',
        screenshot_url: `/api/articles/${article.id}/screenshot`,
        tags: ['habits', 'reading'],
        reading_time: 1,
      });
      expect(article.url).toBe(`${SCREENSHOT_URL_SCHEME}${article.id}`);
      expect(article.content).toMatch(/<p>[^<]*Reading slowly in the morning/);
      expect(article.content).toContain('notebook');
      expect((await owner.client.get('/articles/search?q=notebook')).body.articles).toHaveLength(1);

      const image = await fetch(`${world.server.url}${article.screenshot_url}`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      // Owner-only: not cached for a year on a shared device (it used to be `immutable`).
      expect(image.headers.get('cache-control')).toBe('private, no-store');
      expect(Buffer.from(await image.arrayBuffer()).equals(screenshot)).toBe(true);

      const stranger = await signUp(world.api);
      expect((await stranger.client.get(`/articles/${article.id}/screenshot`)).status).toBe(404);
      expect((await world.api.get(`/articles/${article.id}/screenshot`)).status).toBe(401);

      // Kept in the store under the owner's folder (the bucket when this file runs on S3), and gone with it.
      const folder = `uploads/${owner.user.id}/`;
      expect(await files.keys(world.server.dataDir, folder)).toEqual([`${folder}${article.id}.png`]);
      expect((await owner.client.delete(`/articles/${article.id}`)).status).toBe(204);
      expect(await files.keys(world.server.dataDir, folder)).toEqual([]);
    });

    it('keeps the OCR text private on a public list: no description, no image', async () => {
      const owner = await signUp(world.api);
      const article = (await upload(owner.client, { image: screenshot })).body.article;
      expect(article.description).toContain('Reading slowly');
      const list = (await owner.client.post('/lists', { name: 'Shared shots', isPublic: true })).body.list;
      expect((await owner.client.post(`/lists/${list.id}/articles`, { articleId: article.id })).status).toBe(
        200,
      );
      const shared = await world.api.get(`/lists/public/${list.share_id}`);
      expect(shared.status).toBe(200);
      expect(shared.body.articles).toEqual([
        expect.objectContaining({ id: article.id, description: null, image_url: null }),
      ]);
      expect(JSON.stringify(shared.body)).not.toContain('Reading slowly');
    });

    it('trusts the bytes, not the declared type: a text file called image/png is refused', async () => {
      const { client } = await signUp(world.api);
      const answer = await upload(client, { image: Buffer.from('not an image at all'), type: 'image/png' });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'The screenshot must be a PNG, JPEG or WebP image' });
      expect((await client.get('/articles')).body.articles).toEqual([]);
    });

    it('answers 400 for an image whose header passes but whose data cannot be decoded', async () => {
      const { client } = await signUp(world.api);
      const broken = Buffer.concat([screenshot.subarray(0, 64), Buffer.alloc(256, 7)]);
      const answer = await upload(client, { image: broken });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'The screenshot could not be read as an image' });
      expect((await upload(client, { image: screenshot })).status).toBe(201);
    });

    it('answers 413 above 15 MB, 400 without the file field, 400 for a body that is not a form', async () => {
      const { client } = await signUp(world.api);
      const huge = Buffer.concat([screenshot, Buffer.alloc(15 * 1024 * 1024 + 1)]);
      const tooLarge = await upload(client, { image: huge });
      expect(tooLarge.status).toBe(413);
      expect((await upload(client, { tags: 'x' })).status).toBe(400);
      expect((await upload(client, { image: screenshot, name: 'picture' })).status).toBe(400);
      expect((await client.post('/articles/screenshot', { screenshot: 'x' })).status).toBe(400);
      expect((await client.get('/articles')).body.articles).toEqual([]);
    });

    it('replays a create with the same id without a second article', async () => {
      const { client } = await signUp(world.api);
      const id = crypto.randomUUID();
      const first = await upload(client, { image: screenshot, id });
      const again = await upload(client, { image: screenshot, id });
      expect(first.status).toBe(201);
      expect(again.body.article).toEqual(first.body.article);
      expect((await client.get('/articles')).body.articles).toHaveLength(1);
      expect((await upload(client, { image: screenshot, id: 'not-a-uuid' })).status).toBe(400);
    });
  });
}
