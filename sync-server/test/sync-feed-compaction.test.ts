import type { Change } from '@lectern/shared-schema';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUp, type ApiClient } from './support/api-client';
import { startWorld, type World } from './support/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

async function changesSince(
  client: ApiClient,
  since: number,
): Promise<{ cursor: number; changes: Change[] }> {
  const answer = await client.get(`/sync/changes?since=${since}&limit=1000`);
  expect(answer.status).toBe(200);
  return answer.body;
}

it('keeps only the latest change of each entity, so a first sync downloads each row once', async () => {
  const { client } = await signUp(world.api);
  const article = (await client.post('/articles', { url: world.site.url('/baking') })).body.article;
  const { cursor: afterCreate } = await changesSince(client, 0);
  await client.put(`/articles/${article.id}`, { isRead: true });
  await client.put(`/articles/${article.id}`, { isFavorite: true });
  await client.put(`/articles/${article.id}`, { isArchived: true });

  const fromStart = (await changesSince(client, 0)).changes.filter((change) => change.entity === 'article');
  expect(fromStart).toHaveLength(1);
  expect(fromStart[0]?.row).toMatchObject({
    id: article.id,
    is_read: true,
    is_favorite: true,
    is_archived: true,
  });

  // A device that saw the create still gets the latest state, once.
  const fromMiddle = (await changesSince(client, afterCreate)).changes;
  expect(fromMiddle.map((change) => change.id)).toEqual([article.id]);
  expect(fromMiddle[0]?.row).toMatchObject({ is_archived: true });
});

it('leaves a delete as the only trace of a deleted entity', async () => {
  const { client } = await signUp(world.api);
  const tag = (await client.post('/tags', { name: 'fleeting' })).body.tag;
  await client.put(`/tags/${tag.id}`, { name: 'passing' });
  await client.delete(`/tags/${tag.id}`);
  const changes = (await changesSince(client, 0)).changes.filter((change) => change.id === tag.id);
  expect(changes).toEqual([{ seq: expect.any(Number), entity: 'tag', id: tag.id, op: 'delete', row: null }]);
});
