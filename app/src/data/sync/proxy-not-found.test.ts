// A queued write meets a 404 that the API didn't send: a proxy in front of the server answering its own
// HTML page (a deploy in progress, a misrouted path). Only the API's own `{error}` 404 means the target is
// gone; any other 404 keeps the write and tries again later. A real server behind a small local proxy
// that can be told to answer HTML 404 for one path.
import type { ArticleResponse } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import {
  newCredentials,
  serverReader,
  startProxiedWorld,
  type ProxiedWorld,
} from '../testing/server-fixture';
import { worldPerFile } from '../testing/per-test';
import { createTestDevice } from '../testing/test-lectern';

let world: ProxiedWorld;
worldPerFile(startProxiedWorld, (started) => (world = started));

async function deviceBehindProxy() {
  const device = createTestDevice({ baseUrl: world.proxy.url });
  const auth = await device.lectern.auth.register(newCredentials());
  return { ...device, auth, server: serverReader(world, auth.token) };
}

describe('a 404 the API did not send', () => {
  it('keeps the queued write and sends it once the server answers again', async () => {
    const { lectern, server } = await deviceBehindProxy();
    const { article } = await lectern.articles.create({ url: world.site.url('/gardening') });
    await lectern.articles.update(article.id, { isFavorite: true });
    world.proxy.htmlNotFound.add(`PUT /api/articles/${article.id}`);

    const first = await lectern.sync.syncNow();
    expect(first).toEqual({ status: 'retrying' });
    const rows = await lectern.db.outbox.toArray();
    expect(rows.map((row) => [row.op.kind, row.status])).toEqual([['updateArticle', 'pending']]);
    expect((await lectern.articles.get(article.id)).article.is_favorite).toBe(true);
    expect(lectern.sync.getState().failed).toEqual([]);
    expect((await server<ArticleResponse>(`/articles/${article.id}`)).article.is_favorite).toBe(false);

    world.proxy.htmlNotFound.clear();
    expect(await lectern.sync.syncNow()).toMatchObject({ status: 'synced', pushed: 1 });
    expect(await lectern.db.outbox.count()).toBe(0);
    expect((await server<ArticleResponse>(`/articles/${article.id}`)).article.is_favorite).toBe(true);
    expect((await lectern.articles.get(article.id)).article.is_favorite).toBe(true);
    await lectern.close();
  });

  it('still drops a write whose target the API itself says is gone (its JSON {error} 404)', async () => {
    const { lectern, auth } = await deviceBehindProxy();
    const { article } = await lectern.articles.create({ url: world.site.url('/astronomy') });
    await lectern.articles.update(article.id, { isArchived: true });
    // Another device deleted it: the API answers 404 with its own body.
    const deleted = await fetch(`${world.server.url}/api/articles/${article.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${auth.token}` },
    });
    expect(deleted.status).toBeLessThan(300);
    const answer = await fetch(`${world.server.url}/api/articles/${article.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${auth.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ isArchived: true }),
    });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual({ error: 'Article not found' });

    expect(await lectern.sync.syncNow()).toMatchObject({ status: 'synced' });
    expect(await lectern.db.outbox.count()).toBe(0);
    await expect(lectern.articles.get(article.id)).rejects.toMatchObject({ status: 404 });
    await lectern.close();
  });
});
