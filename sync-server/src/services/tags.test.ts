// The tag rules on a fresh database of the run's engine (SQLite or PostgreSQL) with the real migrations: one tag per name (shared-schema's tag
// key), renames and deletes reaching every article carrying the tag, and what the change feed carries.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/connection';
import { addReader, changesOf, newArticle, readerDbPerTest, summaries } from '../testing/memory-db';
import { findArticle } from './article-rows';
import { insertArticle } from './articles';
import { searchedIds } from '../testing/searched-ids';
import { createTag, deleteTag, getTag, listTags, renameTag, tagArticles } from './tags';

let db: Db;
let reader: string;

readerDbPerTest((fresh) => ({ db, reader } = fresh));

const save = async (name: string, tags: string[]) =>
  (await insertArticle(db, reader, newArticle(`https://example.org/${name}`), tags)).article;

describe('tags', () => {
  it('are one per name, whatever its case or spacing, and a create of a known name records nothing', async () => {
    const tag = await createTag(db, reader, { name: '  Résumé ' });
    expect(tag).toMatchObject({ name: 'Résumé', article_count: 0 });
    const again = await changesOf(db, reader, async () =>
      expect(await createTag(db, reader, { name: 'RÉSUMÉ' })).toEqual(tag),
    );
    expect(again).toEqual([]);
    expect(await listTags(db, reader)).toEqual([tag]);
    // Another reader's tag of the same name is their own.
    expect((await createTag(db, await addReader(db), { name: 'Résumé' })).id).not.toBe(tag.id);
  });

  it('rename: the tag and every article carrying it are recorded with the new name, and search finds it', async () => {
    const first = await save('a', ['Soil']);
    const second = await save('b', ['Soil', 'Kale']);
    const untouched = await save('c', ['Kale']);
    const soil = (await listTags(db, reader)).find((tag) => tag.name === 'Soil')!;
    const changes = await changesOf(db, reader, async () => await renameTag(db, reader, soil.id, 'Dirt'));
    expect(summaries(changes).sort()).toEqual(
      [`upsert tag ${soil.id}`, `upsert article ${first.id}`, `upsert article ${second.id}`].sort(),
    );
    expect(changes.find((change) => change.id === second.id)?.row).toEqual(
      await findArticle(db, reader, second.id),
    );
    expect((await findArticle(db, reader, second.id))?.tags).toEqual(['Dirt', 'Kale']);
    expect(changes.find((change) => change.entity === 'tag')?.row).toEqual({
      ...soil,
      name: 'Dirt',
      article_count: 2,
    });
    expect((await searchedIds(db, reader, 'dirt')).sort()).toEqual([first.id, second.id].sort());
    expect(summaries(changes)).not.toContain(`upsert article ${untouched.id}`);
  });

  it('rename to a name another tag has: 409, nothing changes', async () => {
    await save('a', ['Soil', 'Kale']);
    const soil = (await listTags(db, reader)).find((tag) => tag.name === 'Soil')!;
    const changes = await changesOf(
      db,
      reader,
      async () =>
        await expect(renameTag(db, reader, soil.id, 'kale')).rejects.toThrow(SERVER_ERRORS.tagNameTaken),
    );
    expect(changes).toEqual([]);
    expect((await getTag(db, reader, soil.id)).name).toBe('Soil');
  });

  it('delete: a tombstone for the tag, and its articles recorded without it', async () => {
    const article = await save('a', ['Soil', 'Kale']);
    const soil = (await listTags(db, reader)).find((tag) => tag.name === 'Soil')!;
    const changes = await changesOf(db, reader, async () => await deleteTag(db, reader, soil.id));
    expect(changes).toEqual(
      expect.arrayContaining([
        { seq: expect.any(Number), entity: 'tag', id: soil.id, op: 'delete', row: null },
        {
          seq: expect.any(Number),
          entity: 'article',
          id: article.id,
          op: 'upsert',
          row: await findArticle(db, reader, article.id),
        },
      ]),
    );
    expect(changes).toHaveLength(2);
    expect((await findArticle(db, reader, article.id))?.tags).toEqual(['Kale']);
    expect(await searchedIds(db, reader, 'soil')).toEqual([]);
    await expect(tagArticles(db, reader, soil.id)).rejects.toThrow(SERVER_ERRORS.tagNotFound);
    await expect(createTag(db, reader, { id: soil.id, name: 'Soil' })).rejects.toThrow(
      SERVER_ERRORS.tagNotFound,
    );
  });

  it('keeps another reader out with 404', async () => {
    await save('a', ['Soil']);
    const soil = (await listTags(db, reader))[0]!;
    const stranger = await addReader(db);
    await expect(renameTag(db, stranger, soil.id, 'Mine')).rejects.toThrow(SERVER_ERRORS.tagNotFound);
    await expect(deleteTag(db, stranger, soil.id)).rejects.toThrow(SERVER_ERRORS.tagNotFound);
    expect(await getTag(db, reader, soil.id)).toEqual(soil);
  });
});
