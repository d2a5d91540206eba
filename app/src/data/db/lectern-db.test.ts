import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { LecternDb, SCHEMA_VERSIONS } from './lectern-db';

describe('LecternDb', () => {
  it('opens at the last schema version with every table and index', async () => {
    const db = new LecternDb('schema-test', { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSIONS.at(-1)?.version);
    const indexes = Object.fromEntries(
      db.tables.map((table) => [table.name, table.schema.indexes.map((i) => i.name).sort()]),
    );
    expect(indexes).toEqual({
      articles: ['created_at', 'rev', 'tag_keys'],
      article_contents: ['rev'],
      tags: ['name_key'],
      lists: ['created_at'],
      list_articles: ['article_id', 'list_id'],
      highlights: ['article_id', 'created_at', 'rev'],
      outbox: ['ids', 'status'],
      screenshots: [],
      meta: [],
      offline_images: ['[state+created_at]', 'article_id', 'created_at'],
      image_files: [],
    });
    db.close();
  });

  it('wipes every table at once, the schema staying', async () => {
    const db = new LecternDb('wipe-test', { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.setMeta('cursor', 42);
    await db.tags.put({ id: 't', name: 'x', name_key: 'x', created_at: '2026-01-01T00:00:00.000Z' });
    const path = `/api/images/a/${'0'.repeat(64)}.png`;
    const createdAt = '2026-01-01T00:00:00.000Z';
    await db.offline_images.put({ path, article_id: 'a', created_at: createdAt, state: 'stored', size: 3 });
    await db.image_files.put({ path, bytes: new ArrayBuffer(3), type: 'image/png' });
    await db.wipe();
    expect(await db.getMeta('cursor')).toBeUndefined();
    expect(await db.tags.count()).toBe(0);
    // The images kept for reading offline go with the rest.
    expect(await db.offline_images.count()).toBe(0);
    expect(await db.image_files.count()).toBe(0);
    expect(db.isOpen()).toBe(true);
    db.close();
  });
});
