// Saving an address that is already in the library answers that article (200), never a second copy.
import { newId } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type ApiClient } from './support/api-client';
import { startWorld, type World } from './support/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

async function save(client: ApiClient, url: string, extra: object = {}) {
  return client.post('/articles', { url, ...extra });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('saving an address already in the library', () => {
  it('answers the existing article with 200, back on top, out of the archive, highlights and tags kept', async () => {
    const { client } = await signUp(world.api);
    const first = await save(client, world.site.url('/gardening'), { tags: ['garden'] });
    expect(first.status).toBe(201);
    const original = first.body.article;
    const highlight = await client.post('/highlights', {
      articleId: original.id,
      highlightedText: 'compost',
      positionStart: 0,
      positionEnd: 7,
    });
    expect(highlight.status).toBe(201);
    await pause(5);
    expect((await save(client, world.site.url('/astronomy'))).status).toBe(201);
    expect((await client.put(`/articles/${original.id}`, { isArchived: true, isRead: true })).status).toBe(
      200,
    );
    const { body: feedBefore } = await client.get('/sync/changes?since=0');
    await pause(5);

    const again = await save(
      client,
      `${world.site.url('/gardening').replace('http://', 'HTTP://')}/?utm_source=newsletter&fbclid=abc#comments`,
      { tags: ['winter', 'Garden'] },
    );
    expect(again.status).toBe(200);
    expect(again.body.article).toMatchObject({
      id: original.id,
      url: original.url,
      is_archived: false,
      is_read: true,
      highlights_count: 1,
      tags: ['garden', 'winter'],
      title: 'Winter Gardening Guide',
    });
    expect(again.body.article.created_at > original.created_at).toBe(true);

    const { body: listed } = await client.get('/articles');
    expect(listed.articles.map((a: { id: string }) => a.id)[0]).toBe(original.id);
    expect(listed.articles.filter((a: { url: string }) => a.url === original.url)).toHaveLength(1);
    expect(listed.articles).toHaveLength(2);
    expect((await client.get('/articles?archived=true')).body.articles).toEqual([]);
    expect((await client.get(`/highlights/article/${original.id}`)).body.highlights).toHaveLength(1);
    expect(
      (await client.get('/tags')).body.tags.map((t: { name: string; article_count: number }) => [
        t.name,
        t.article_count,
      ]),
    ).toEqual([
      ['garden', 1],
      ['winter', 1],
    ]);

    // Recorded in the change feed, so other devices move it too.
    const { body: feed } = await client.get(`/sync/changes?since=${feedBefore.cursor}`);
    const change = feed.changes.find((c: { entity: string; id: string }) => c.entity === 'article');
    expect(change).toMatchObject({ id: original.id, op: 'upsert', row: { is_archived: false } });
    expect(change.row.created_at).toBe(again.body.article.created_at);
  });

  it('answers with 200 without fetching the page again (the page may be gone meanwhile)', async () => {
    const { client } = await signUp(world.api);
    expect((await save(client, world.site.url('/baking'))).status).toBe(201);
    // The fixture site serves no page at /baking/ (trailing slash): a fetch would answer 404.
    const again = await save(client, `${world.site.url('/baking')}/`);
    expect(again.status).toBe(200);
    expect((await client.get('/articles')).body.articles).toHaveLength(1);
  });

  it('keeps the client-id replay: the same id again answers the same article, no copy', async () => {
    const { client } = await signUp(world.api);
    const id = newId();
    const first = await save(client, world.site.url('/cycling'), { id });
    expect(first.status).toBe(201);
    const replay = await save(client, world.site.url('/cycling'), { id });
    expect([200, 201]).toContain(replay.status);
    expect(replay.body.article.id).toBe(id);
    // A new client id for the same address (a second device saving offline) answers the existing one.
    const other = await save(client, world.site.url('/cycling'), { id: newId() });
    expect(other.status).toBe(200);
    expect(other.body.article.id).toBe(id);
    expect((await client.get('/articles')).body.articles).toHaveLength(1);
  });

  it('makes one article when the same address is saved twice at once', async () => {
    const { client } = await signUp(world.api);
    const answers = await Promise.all([
      save(client, world.site.url('/astronomy')),
      save(client, `${world.site.url('/astronomy')}?utm_medium=social`),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0]!.body.article.id).toBe(answers[1]!.body.article.id);
    expect((await client.get('/articles')).body.articles).toHaveLength(1);
  });

  it('is per user: another reader saving the same address gets their own article', async () => {
    const alice = (await signUp(world.api)).client;
    const bob = (await signUp(world.api)).client;
    const mine = await save(alice, world.site.url('/gardening'));
    const theirs = await save(bob, world.site.url('/gardening'));
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.article.id).not.toBe(mine.body.article.id);
    expect((await alice.get('/articles')).body.articles).toHaveLength(1);
  });

  it('saves a different query or path as a different article', async () => {
    const { client } = await signUp(world.api);
    expect((await save(client, `${world.site.url('/gardening')}?page=1`)).status).toBe(201);
    expect((await save(client, `${world.site.url('/gardening')}?page=2`)).status).toBe(201);
    expect((await client.get('/articles')).body.articles).toHaveLength(2);
  });

  it("keeps different links that redirect to the site's root as different articles", async () => {
    const { client } = await signUp(world.api);
    const first = await save(client, world.site.url('/go/first-story'));
    expect(first.status).toBe(201);
    const second = await save(client, world.site.url('/go/second-story'));
    expect(second.status).toBe(201);
    expect(second.body.article.id).not.toBe(first.body.article.id);
    expect((await client.get('/articles')).body.articles).toHaveLength(2);
    // The link itself is still one address: saving it again answers its article.
    const again = await save(client, world.site.url('/go/first-story'));
    expect(again.status).toBe(200);
    expect(again.body.article.id).toBe(first.body.article.id);
    expect((await client.get('/articles')).body.articles).toHaveLength(2);
  });

  it('saves a deleted address anew', async () => {
    const { client } = await signUp(world.api);
    const first = await save(client, world.site.url('/baking'));
    expect((await client.delete(`/articles/${first.body.article.id}`)).status).toBe(204);
    const again = await save(client, world.site.url('/baking'));
    expect(again.status).toBe(201);
    expect(again.body.article.id).not.toBe(first.body.article.id);
  });
});
