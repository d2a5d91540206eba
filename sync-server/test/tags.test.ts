import { SERVER_ERRORS } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/api-client';
import { startWorld, type World } from './support/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

describe('/api/tags', () => {
  it('creates, lists with article_count, renames and deletes tags', async () => {
    const { client } = await signUp(world.api);
    const created = await client.post('/tags', { name: '  Deep   Work ' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      tag: { id: expect.any(String), name: 'Deep Work', article_count: 0, created_at: expect.any(String) },
    });
    const tag = created.body.tag;
    expect((await client.post('/tags', { name: 'deep work' })).body.tag.id).toBe(tag.id);

    const article = (
      await client.post('/articles', { url: world.site.url('/baking'), tags: ['deep work', 'food'] })
    ).body.article;
    expect(article.tags).toEqual(['Deep Work', 'food']);
    const listed = await client.get('/tags');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      tags: [
        { ...tag, article_count: 1 },
        { id: expect.any(String), name: 'food', article_count: 1, created_at: expect.any(String) },
      ],
    });

    const renamed = await client.put(`/tags/${tag.id}`, { name: 'Focus' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.tag).toMatchObject({ id: tag.id, name: 'Focus', article_count: 1 });
    expect((await client.get(`/articles/${article.id}`)).body.article.tags).toEqual(['Focus', 'food']);
    expect((await client.get('/articles/search?q=focus')).body.articles).toHaveLength(1);

    const ofTag = await client.get(`/tags/${tag.id}/articles`);
    expect(ofTag.status).toBe(200);
    expect(ofTag.body.tag.name).toBe('Focus');
    expect(ofTag.body.articles.map((a: { id: string }) => a.id)).toEqual([article.id]);

    expect((await client.delete(`/tags/${tag.id}`)).status).toBe(204);
    expect((await client.get(`/articles/${article.id}`)).body.article.tags).toEqual(['food']);
    expect((await client.get('/tags')).body.tags.map((t: { name: string }) => t.name)).toEqual(['food']);
    expect((await client.get('/articles/search?q=focus')).body.articles).toEqual([]);
  });

  it('refuses renaming onto another tag’s name with 409, and empty names with 400', async () => {
    const { client } = await signUp(world.api);
    const a = (await client.post('/tags', { name: 'alpha' })).body.tag;
    await client.post('/tags', { name: 'beta' });
    const clash = await client.put(`/tags/${a.id}`, { name: 'BETA' });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ error: SERVER_ERRORS.tagNameTaken });
    expect((await client.post('/tags', { name: '   ' })).status).toBe(400);
    expect((await client.put(`/tags/${a.id}`, { name: 'Alpha' })).body.tag.name).toBe('Alpha');
  });

  it('keeps each user’s tags apart: another user’s tag ids answer 404', async () => {
    const owner = await signUp(world.api);
    const intruder = await signUp(world.api);
    const tag = (await owner.client.post('/tags', { name: 'private' })).body.tag;
    expect((await intruder.client.get('/tags')).body.tags).toEqual([]);
    for (const answer of [
      await intruder.client.put(`/tags/${tag.id}`, { name: 'stolen' }),
      await intruder.client.delete(`/tags/${tag.id}`),
      await intruder.client.get(`/tags/${tag.id}/articles`),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: SERVER_ERRORS.tagNotFound });
    }
    const article = (await intruder.client.post('/articles', { url: world.site.url('/cycling') })).body
      .article;
    expect((await intruder.client.post(`/articles/${article.id}/tags`, { tagId: tag.id })).status).toBe(404);
    expect((await owner.client.get('/tags')).body.tags).toEqual([tag]);
    // The same name may exist for two users.
    expect((await intruder.client.post('/tags', { name: 'private' })).body.tag.id).not.toBe(tag.id);
  });
});
