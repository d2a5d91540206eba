// Tags made before the name_key column: keyed at start, and two the old ASCII-only rule told apart merged.
import { sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startTestServer } from '../src/testing/start-test-server';
import { openServerDatabase } from '../src/testing/test-database';
import { ApiClient, signUp } from './support/api-client';

it('keys old tags at start and merges "RÉSUMÉ" into "résumé", telling devices through the feed', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-tag-keys-'));
  try {
    let server = await startTestServer({ dataDir });
    const { client } = await signUp(new ApiClient(server.url));
    const older = (await client.post('/tags', { name: 'résumé' })).body.tag;
    const other = (await client.post('/tags', { name: 'Reading' })).body.tag;
    await server.close();

    // As the old server left them: no keys, and a second tag the ASCII-only rule let in.
    const db = await openServerDatabase(dataDir);
    await db.run(sql`UPDATE tags SET name_key = NULL`);
    const userId = (await db.get<{ user_id: string }>(sql`SELECT user_id FROM tags LIMIT 1`))!.user_id;
    await db.run(sql`INSERT INTO tags (id, user_id, name, created_at, updated_at)
         VALUES ('01900000-0000-7000-8000-000000000001', ${userId}, 'RÉSUMÉ', '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z')`);
    await db.close();

    server = await startTestServer({ dataDir });
    const again = new ApiClient(server.url, client.token);
    const tags = (await again.get('/tags')).body.tags.map((tag: { id: string; name: string }) => [
      tag.id,
      tag.name,
    ]);
    expect(tags).toEqual([
      [other.id, 'Reading'],
      [older.id, 'résumé'],
    ]);
    const feed = (await again.get('/sync/changes?since=0&limit=1000')).body.changes;
    expect(feed).toContainEqual(
      expect.objectContaining({ entity: 'tag', id: '01900000-0000-7000-8000-000000000001', op: 'delete' }),
    );
    // A new tag of the same name answers the merged one.
    expect((await again.post('/tags', { name: 'RÉSUMÉ' })).body.tag.id).toBe(older.id);
    await server.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
