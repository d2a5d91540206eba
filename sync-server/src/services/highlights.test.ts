// The highlight rules on a fresh database of the run's engine (SQLite or PostgreSQL) with the real migrations: what is stored and what the change
// feed carries, the article's highlights_count included.
import { newId, SERVER_ERRORS, type CreateHighlightBody } from '@lectern/shared-schema';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/connection';
import {
  countRows,
  addReader,
  changesOf,
  feedOf,
  newArticle,
  readerDbPerTest,
  summaries,
} from '../testing/memory-db';
import { getArticle } from './article-rows';
import { insertArticle } from './articles';
import {
  articleHighlights,
  createHighlight,
  deleteHighlight,
  getHighlight,
  listHighlights,
  updateHighlight,
} from './highlights';

let db: Db;
let reader: string;
let articleId: string;

readerDbPerTest((fresh) => ({ db, reader } = fresh));

beforeEach(async () => {
  articleId = (await insertArticle(db, reader, newArticle('https://example.org/kale'), [])).article.id;
});

const body = (fields: Partial<CreateHighlightBody> = {}): CreateHighlightBody => ({
  articleId,
  highlightedText: 'compost and kale',
  contextBefore: 'about ',
  contextAfter: ' today',
  positionStart: 6,
  positionEnd: 22,
  ...fields,
});

const highlightCount = async () => await countRows(db, 'highlights');

describe('creating a highlight', () => {
  it('stores the passage with its context and records it and its article’s new count', async () => {
    let id = '';
    const changes = await changesOf(
      db,
      reader,
      async () => (id = (await createHighlight(db, reader, body())).id),
    );
    const stored = await getHighlight(db, reader, id);
    expect(stored).toMatchObject({
      article_id: articleId,
      highlighted_text: 'compost and kale',
      context_before: 'about ',
      context_after: ' today',
      position_start: 6,
      position_end: 22,
      color: 'yellow',
      article_title: 'Page at https://example.org/kale',
    });
    const article = await getArticle(db, reader, articleId);
    expect(article.highlights_count).toBe(1);
    expect(changes).toEqual([
      { seq: expect.any(Number), entity: 'highlight', id, op: 'upsert', row: stored },
      { seq: expect.any(Number), entity: 'article', id: articleId, op: 'upsert', row: article },
    ]);
  });

  it('refuses a passage under 3 characters after trimming, or positions out of order, storing nothing', async () => {
    const before = await feedOf(db, reader);
    await expect(createHighlight(db, reader, body({ highlightedText: '  ab  ' }))).rejects.toThrow(
      SERVER_ERRORS.highlightTooShort,
    );
    await expect(createHighlight(db, reader, body({ positionStart: 9, positionEnd: 3 }))).rejects.toThrow(
      'positionEnd must not be before positionStart',
    );
    await expect(createHighlight(db, await addReader(db), body())).rejects.toThrow(
      SERVER_ERRORS.articleNotFound,
    );
    expect(await highlightCount()).toBe(0);
    expect(await feedOf(db, reader)).toEqual(before);
  });

  it('answers a replayed id with what it made (recording nothing), 409 for another reader and 404 once deleted', async () => {
    const id = newId();
    const first = await createHighlight(db, reader, body({ id }));
    expect(
      await changesOf(db, reader, async () =>
        expect(await createHighlight(db, reader, body({ id }))).toEqual(first),
      ),
    ).toEqual([]);
    await expect(createHighlight(db, await addReader(db), body({ id }))).rejects.toThrow(
      SERVER_ERRORS.idTaken,
    );
    await deleteHighlight(db, reader, id);
    await expect(createHighlight(db, reader, body({ id }))).rejects.toThrow(SERVER_ERRORS.highlightNotFound);
    expect(await highlightCount()).toBe(0);
  });
});

describe('changing and deleting a highlight', () => {
  it('records only the highlight when its text changes: the article’s count did not', async () => {
    const { id } = await createHighlight(db, reader, body());
    const changes = await changesOf(
      db,
      reader,
      async () => await updateHighlight(db, reader, id, { highlightedText: 'kale' }),
    );
    expect(summaries(changes)).toEqual([`upsert highlight ${id}`]);
    expect(changes[0]?.row).toEqual(await getHighlight(db, reader, id));
    expect((await getHighlight(db, reader, id)).highlighted_text).toBe('kale');
  });

  it('deletes with a tombstone and records the article’s new count', async () => {
    const { id } = await createHighlight(db, reader, body());
    const kept = await createHighlight(db, reader, body({ highlightedText: 'another passage' }));
    const changes = await changesOf(db, reader, async () => await deleteHighlight(db, reader, id));
    expect(changes).toEqual([
      { seq: expect.any(Number), entity: 'highlight', id, op: 'delete', row: null },
      {
        seq: expect.any(Number),
        entity: 'article',
        id: articleId,
        op: 'upsert',
        row: await getArticle(db, reader, articleId),
      },
    ]);
    expect((await getArticle(db, reader, articleId)).highlights_count).toBe(1);
    expect((await articleHighlights(db, reader, articleId)).map((item) => item.id)).toEqual([kept.id]);
    expect((await listHighlights(db, reader)).stats.total_highlights).toBe(1);
  });

  it('answers 404 for another reader’s highlight and leaves it alone', async () => {
    const { id } = await createHighlight(db, reader, body());
    const stranger = await addReader(db);
    await expect(updateHighlight(db, stranger, id, { highlightedText: 'theirs now' })).rejects.toThrow(
      SERVER_ERRORS.highlightNotFound,
    );
    await expect(deleteHighlight(db, stranger, id)).rejects.toThrow(SERVER_ERRORS.highlightNotFound);
    expect((await getHighlight(db, reader, id)).highlighted_text).toBe('compost and kale');
    expect((await feedOf(db, stranger)).changes).toEqual([]);
  });
});
