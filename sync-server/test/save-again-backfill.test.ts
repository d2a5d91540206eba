// Articles a SQLite library stored before the address column existed get their normalised address when the
// database is opened (db/connection.ts), so saving the address again finds them. SQLite only: every
// PostgreSQL library was made with the column.
import { normalizeArticleUrl } from '@lectern/shared-schema';
import { join } from 'node:path';
import { openSqlite } from '../src/db/connection';
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

describe('articles saved before the address column existed', () => {
  it('get their normalised address when the database is opened, and are then found by it', async () => {
    const { client, user } = await signUp(world.api);
    const saved = (await save(client, `${world.site.url('/cycling')}?utm_source=x`)).body.article;
    const db = openSqlite(join(world.server.dataDir, 'lectern.sqlite'));
    try {
      db.sqlite.prepare('UPDATE articles SET normalized_url = NULL WHERE user_id = ?').run(user.id);
    } finally {
      await db.close();
    }
    const reopened = openSqlite(join(world.server.dataDir, 'lectern.sqlite'));
    try {
      expect(
        reopened.sqlite.prepare('SELECT normalized_url FROM articles WHERE id = ?').get(saved.id),
      ).toEqual({ normalized_url: normalizeArticleUrl(world.site.url('/cycling')) });
    } finally {
      await reopened.close();
    }
    const again = await save(client, world.site.url('/cycling'));
    expect(again.status).toBe(200);
    expect(again.body.article.id).toBe(saved.id);
  });
});
