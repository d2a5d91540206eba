// The article rules on a fresh database of the run's engine (SQLite or PostgreSQL) with the real migrations: what is stored and what the change feed
// carries after each write. Fetching and extraction are left out (insertArticle takes the extracted page).
import { listArticleKey, newId, SERVER_ERRORS } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/connection';
import {
  countRows,
  addReader,
  changesOf,
  newArticle,
  readerDbPerTest,
  summaries,
} from '../testing/memory-db';
import { findArticle, getArticle } from './article-rows';
import {
  attachTag,
  deleteArticle,
  detachTag,
  findReplayedArticle,
  insertArticle,
  readArticleListAnswer,
  resaveKnownAddress,
  updateArticle,
  type SavedArticle,
} from './articles';
import { createHighlight } from './highlights';
import { addArticleToList, createList, getListWithArticles } from './lists';
import { createTag, getTag, listTags } from './tags';

let db: Db;
let reader: string;

readerDbPerTest((fresh) => ({ db, reader } = fresh));

const tagNamed = async (name: string) => (await listTags(db, reader)).find((tag) => tag.name === name);

describe('saving an article', () => {
  it('stores the page with its tags and records the article and each tag with its count', async () => {
    let saved: SavedArticle | undefined;
    const changes = await changesOf(db, reader, async () => {
      saved = await insertArticle(db, reader, newArticle('https://example.org/kale'), [
        'Garden',
        'garden',
        'Food',
      ]);
    });
    const { article, alreadySaved } = saved!;
    expect(alreadySaved).toBe(false);
    expect(article).toMatchObject({
      url: 'https://example.org/kale',
      content: '<p>Compost and kale</p>',
      tags: ['Food', 'Garden'],
      highlights_count: 0,
      is_read: false,
      is_archived: false,
    });
    expect((await listTags(db, reader)).map((tag) => [tag.name, tag.article_count])).toEqual([
      ['Food', 1],
      ['Garden', 1],
    ]);
    const food = (await tagNamed('Food'))!;
    const garden = (await tagNamed('Garden'))!;
    expect(summaries(changes).sort()).toEqual(
      [`upsert article ${article.id}`, `upsert tag ${food.id}`, `upsert tag ${garden.id}`].sort(),
    );
    expect(changes.find((change) => change.entity === 'article')?.row).toEqual(article);
    expect(changes.find((change) => change.id === garden.id)?.row).toEqual(garden);
  });

  it('answers the article already at that address, back on top and out of the archive, with the new tags added', async () => {
    const first = (
      await insertArticle(db, reader, newArticle('https://example.org/kale?utm_source=feed'), ['Garden'])
    ).article;
    await updateArticle(db, reader, first.id, { isArchived: true });
    const again = await insertArticle(db, reader, newArticle('https://EXAMPLE.org/kale#top'), ['Food']);
    expect(again.alreadySaved).toBe(true);
    expect(again.article.id).toBe(first.id);
    expect(again.article.is_archived).toBe(false);
    expect(again.article.tags).toEqual(['Food', 'Garden']);
    expect(again.article.created_at >= first.created_at).toBe(true);
    expect(await countRows(db, 'articles')).toBe(1);

    const changes = await changesOf(
      db,
      reader,
      async () => await resaveKnownAddress(db, reader, ['https://example.org/kale'], ['Soil']),
    );
    expect(summaries(changes).sort()).toEqual(
      [`upsert article ${first.id}`, `upsert tag ${(await tagNamed('Soil'))!.id}`].sort(),
    );
  });

  it('answers a replayed create with the article it made, and a deleted id with 404', async () => {
    const id = newId();
    const article = (await insertArticle(db, reader, newArticle('https://example.org/a', { id }), []))
      .article;
    expect(await findReplayedArticle(db, reader, id)).toEqual(article);
    const stranger = await addReader(db);
    await expect(findReplayedArticle(db, stranger, id)).rejects.toThrow(SERVER_ERRORS.idTaken);
    await deleteArticle(db, reader, id);
    await expect(findReplayedArticle(db, reader, id)).rejects.toThrow(SERVER_ERRORS.articleNotFound);
    await expect(insertArticle(db, reader, newArticle('https://example.org/b', { id }), [])).rejects.toThrow(
      SERVER_ERRORS.articleNotFound,
    );
    expect(await findArticle(db, reader, id)).toBeUndefined();
  });
});

describe('changing an article', () => {
  it('changes only the fields sent and records the whole row', async () => {
    const article = (await insertArticle(db, reader, newArticle('https://example.org/a'), [])).article;
    let updated = article;
    const changes = await changesOf(db, reader, async () => {
      updated = await updateArticle(db, reader, article.id, { isFavorite: true, readingProgress: 0.25 });
    });
    expect(updated).toMatchObject({ is_favorite: true, reading_progress: 0.25, is_read: false });
    expect(changes).toEqual([
      { seq: expect.any(Number), entity: 'article', id: article.id, op: 'upsert', row: updated },
    ]);
    expect(await getArticle(db, reader, article.id)).toEqual(updated);
  });

  it('answers 404 for another reader’s article and changes nothing', async () => {
    const article = (await insertArticle(db, reader, newArticle('https://example.org/a'), [])).article;
    const stranger = await addReader(db);
    await expect(updateArticle(db, stranger, article.id, { isRead: true })).rejects.toThrow(
      SERVER_ERRORS.articleNotFound,
    );
    await expect(deleteArticle(db, stranger, article.id)).rejects.toThrow(SERVER_ERRORS.articleNotFound);
    expect((await getArticle(db, reader, article.id)).is_read).toBe(false);
  });

  it('attaches and detaches a tag, recording the article and the tag’s new count', async () => {
    const article = (await insertArticle(db, reader, newArticle('https://example.org/a'), [])).article;
    const tag = await createTag(db, reader, { name: 'Later' });
    const attached = await changesOf(db, reader, async () => await attachTag(db, reader, article.id, tag.id));
    expect((await getArticle(db, reader, article.id)).tags).toEqual(['Later']);
    expect(attached.find((change) => change.entity === 'tag')?.row).toEqual({ ...tag, article_count: 1 });
    expect(attached.find((change) => change.entity === 'article')?.row).toEqual(
      await getArticle(db, reader, article.id),
    );

    const detached = await changesOf(db, reader, async () => await detachTag(db, reader, article.id, tag.id));
    expect((await getArticle(db, reader, article.id)).tags).toEqual([]);
    expect(detached.find((change) => change.entity === 'tag')?.row).toEqual({ ...tag, article_count: 0 });
    expect(
      JSON.parse((await readArticleListAnswer(db, reader, { tag_name: 'later' })).toString()).articles,
    ).toEqual([]);
  });
});

describe('deleting an article', () => {
  it('takes its highlights, tags and list places with it, closes the gap in its lists and records it all', async () => {
    const first = (await insertArticle(db, reader, newArticle('https://example.org/1'), ['Soil'])).article;
    const doomed = (await insertArticle(db, reader, newArticle('https://example.org/2'), ['Soil'])).article;
    const last = (await insertArticle(db, reader, newArticle('https://example.org/3'), [])).article;
    const highlight = await createHighlight(db, reader, {
      articleId: doomed.id,
      highlightedText: 'compost',
      positionStart: 0,
      positionEnd: 7,
    });
    const list = await createList(db, reader, { name: 'Queue' });
    for (const article of [first, doomed, last])
      await addArticleToList(db, reader, list.id, { articleId: article.id });

    const changes = await changesOf(db, reader, async () => await deleteArticle(db, reader, doomed.id));
    expect(await findArticle(db, reader, doomed.id)).toBeUndefined();
    expect(await countRows(db, 'highlights')).toBe(0);
    const { list: after, articles } = await getListWithArticles(db, reader, list.id);
    expect(articles.map((article) => article.id)).toEqual([first.id, last.id]);
    expect(after.article_count).toBe(2);
    expect((await getTag(db, reader, (await tagNamed('Soil'))!.id)).article_count).toBe(1);

    expect(summaries(changes).sort()).toEqual(
      [
        `delete article ${doomed.id}`,
        `delete highlight ${highlight.id}`,
        `delete list_article ${listArticleKey(list.id, doomed.id)}`,
        `upsert list_article ${listArticleKey(list.id, last.id)}`,
        `upsert list ${list.id}`,
        `upsert tag ${(await tagNamed('Soil'))!.id}`,
      ].sort(),
    );
    expect(changes.find((change) => change.entity === 'list')?.row).toEqual(after);
    expect(changes.find((change) => change.id === listArticleKey(list.id, last.id))?.row).toMatchObject({
      position: 1,
    });
    for (const change of changes.filter((item) => item.op === 'delete')) expect(change.row).toBeNull();
  });
});
