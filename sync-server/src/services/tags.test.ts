// The tag rules on an in-memory SQLite with the real migrations: one tag per name (shared-schema's tag
// key), renames and deletes reaching every article carrying the tag, and what the change feed carries.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/connection';
import { addReader, changesOf, newArticle, readerDbPerTest, summaries } from '../testing/memory-db';
import { findArticle } from './article-rows';
import { insertArticle, searchArticles } from './articles';
import { createTag, deleteTag, getTag, listTags, renameTag, tagArticles } from './tags';

let db: Db;
let reader: string;

readerDbPerTest((fresh) => ({ db, reader } = fresh));

const save = (name: string, tags: string[]) =>
  insertArticle(db, reader, newArticle(`https://example.org/${name}`), tags).article;

describe('tags', () => {
  it('are one per name, whatever its case or spacing, and a create of a known name records nothing', () => {
    const tag = createTag(db, reader, { name: '  Résumé ' });
    expect(tag).toMatchObject({ name: 'Résumé', article_count: 0 });
    const again = changesOf(db, reader, () => expect(createTag(db, reader, { name: 'RÉSUMÉ' })).toEqual(tag));
    expect(again).toEqual([]);
    expect(listTags(db, reader)).toEqual([tag]);
    // Another reader's tag of the same name is their own.
    expect(createTag(db, addReader(db), { name: 'Résumé' }).id).not.toBe(tag.id);
  });

  it('rename: the tag and every article carrying it are recorded with the new name, and search finds it', () => {
    const first = save('a', ['Soil']);
    const second = save('b', ['Soil', 'Kale']);
    const untouched = save('c', ['Kale']);
    const soil = listTags(db, reader).find((tag) => tag.name === 'Soil')!;
    const changes = changesOf(db, reader, () => renameTag(db, reader, soil.id, 'Dirt'));
    expect(summaries(changes).sort()).toEqual(
      [`upsert tag ${soil.id}`, `upsert article ${first.id}`, `upsert article ${second.id}`].sort(),
    );
    expect(changes.find((change) => change.id === second.id)?.row).toEqual(
      findArticle(db, reader, second.id),
    );
    expect(findArticle(db, reader, second.id)?.tags).toEqual(['Dirt', 'Kale']);
    expect(changes.find((change) => change.entity === 'tag')?.row).toEqual({
      ...soil,
      name: 'Dirt',
      article_count: 2,
    });
    expect(
      searchArticles(db, reader, 'dirt')
        .map((article) => article.id)
        .sort(),
    ).toEqual([first.id, second.id].sort());
    expect(summaries(changes)).not.toContain(`upsert article ${untouched.id}`);
  });

  it('rename to a name another tag has: 409, nothing changes', () => {
    save('a', ['Soil', 'Kale']);
    const soil = listTags(db, reader).find((tag) => tag.name === 'Soil')!;
    const changes = changesOf(db, reader, () =>
      expect(() => renameTag(db, reader, soil.id, 'kale')).toThrow(SERVER_ERRORS.tagNameTaken),
    );
    expect(changes).toEqual([]);
    expect(getTag(db, reader, soil.id).name).toBe('Soil');
  });

  it('delete: a tombstone for the tag, and its articles recorded without it', () => {
    const article = save('a', ['Soil', 'Kale']);
    const soil = listTags(db, reader).find((tag) => tag.name === 'Soil')!;
    const changes = changesOf(db, reader, () => deleteTag(db, reader, soil.id));
    expect(changes).toEqual(
      expect.arrayContaining([
        { seq: expect.any(Number), entity: 'tag', id: soil.id, op: 'delete', row: null },
        {
          seq: expect.any(Number),
          entity: 'article',
          id: article.id,
          op: 'upsert',
          row: findArticle(db, reader, article.id),
        },
      ]),
    );
    expect(changes).toHaveLength(2);
    expect(findArticle(db, reader, article.id)?.tags).toEqual(['Kale']);
    expect(searchArticles(db, reader, 'soil')).toEqual([]);
    expect(() => tagArticles(db, reader, soil.id)).toThrow(SERVER_ERRORS.tagNotFound);
    expect(() => createTag(db, reader, { id: soil.id, name: 'Soil' })).toThrow(SERVER_ERRORS.tagNotFound);
  });

  it('keeps another reader out with 404', () => {
    save('a', ['Soil']);
    const soil = listTags(db, reader)[0]!;
    const stranger = addReader(db);
    expect(() => renameTag(db, stranger, soil.id, 'Mine')).toThrow(SERVER_ERRORS.tagNotFound);
    expect(() => deleteTag(db, stranger, soil.id)).toThrow(SERVER_ERRORS.tagNotFound);
    expect(getTag(db, reader, soil.id)).toEqual(soil);
  });
});
