// The highlight rules on an in-memory SQLite with the real migrations: what is stored and what the change
// feed carries, the article's highlights_count included.
import { newId, SERVER_ERRORS, type CreateHighlightBody } from '@lectern/shared-schema';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/connection';
import { addReader, changesOf, feedOf, newArticle, readerDbPerTest, summaries } from '../testing/memory-db';
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

beforeEach(() => {
  articleId = insertArticle(db, reader, newArticle('https://example.org/kale'), []).article.id;
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

const highlightCount = () => db.statement('SELECT count(*) FROM highlights').pluck().get();

describe('creating a highlight', () => {
  it('stores the passage with its context and records it and its article’s new count', () => {
    let id = '';
    const changes = changesOf(db, reader, () => (id = createHighlight(db, reader, body()).id));
    const stored = getHighlight(db, reader, id);
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
    const article = getArticle(db, reader, articleId);
    expect(article.highlights_count).toBe(1);
    expect(changes).toEqual([
      { seq: expect.any(Number), entity: 'highlight', id, op: 'upsert', row: stored },
      { seq: expect.any(Number), entity: 'article', id: articleId, op: 'upsert', row: article },
    ]);
  });

  it('refuses a passage under 3 characters after trimming, or positions out of order, storing nothing', () => {
    const before = feedOf(db, reader);
    expect(() => createHighlight(db, reader, body({ highlightedText: '  ab  ' }))).toThrow(
      SERVER_ERRORS.highlightTooShort,
    );
    expect(() => createHighlight(db, reader, body({ positionStart: 9, positionEnd: 3 }))).toThrow(
      'positionEnd must not be before positionStart',
    );
    expect(() => createHighlight(db, addReader(db), body())).toThrow(SERVER_ERRORS.articleNotFound);
    expect(highlightCount()).toBe(0);
    expect(feedOf(db, reader)).toEqual(before);
  });

  it('answers a replayed id with what it made (recording nothing), 409 for another reader and 404 once deleted', () => {
    const id = newId();
    const first = createHighlight(db, reader, body({ id }));
    expect(
      changesOf(db, reader, () => expect(createHighlight(db, reader, body({ id }))).toEqual(first)),
    ).toEqual([]);
    expect(() => createHighlight(db, addReader(db), body({ id }))).toThrow(SERVER_ERRORS.idTaken);
    deleteHighlight(db, reader, id);
    expect(() => createHighlight(db, reader, body({ id }))).toThrow(SERVER_ERRORS.highlightNotFound);
    expect(highlightCount()).toBe(0);
  });
});

describe('changing and deleting a highlight', () => {
  it('records only the highlight when its text changes: the article’s count did not', () => {
    const { id } = createHighlight(db, reader, body());
    const changes = changesOf(db, reader, () => updateHighlight(db, reader, id, { highlightedText: 'kale' }));
    expect(summaries(changes)).toEqual([`upsert highlight ${id}`]);
    expect(changes[0]?.row).toEqual(getHighlight(db, reader, id));
    expect(getHighlight(db, reader, id).highlighted_text).toBe('kale');
  });

  it('deletes with a tombstone and records the article’s new count', () => {
    const { id } = createHighlight(db, reader, body());
    const kept = createHighlight(db, reader, body({ highlightedText: 'another passage' }));
    const changes = changesOf(db, reader, () => deleteHighlight(db, reader, id));
    expect(changes).toEqual([
      { seq: expect.any(Number), entity: 'highlight', id, op: 'delete', row: null },
      {
        seq: expect.any(Number),
        entity: 'article',
        id: articleId,
        op: 'upsert',
        row: getArticle(db, reader, articleId),
      },
    ]);
    expect(getArticle(db, reader, articleId).highlights_count).toBe(1);
    expect(articleHighlights(db, reader, articleId).map((item) => item.id)).toEqual([kept.id]);
    expect(listHighlights(db, reader).stats.total_highlights).toBe(1);
  });

  it('answers 404 for another reader’s highlight and leaves it alone', () => {
    const { id } = createHighlight(db, reader, body());
    const stranger = addReader(db);
    expect(() => updateHighlight(db, stranger, id, { highlightedText: 'theirs now' })).toThrow(
      SERVER_ERRORS.highlightNotFound,
    );
    expect(() => deleteHighlight(db, stranger, id)).toThrow(SERVER_ERRORS.highlightNotFound);
    expect(getHighlight(db, reader, id).highlighted_text).toBe('compost and kale');
    expect(feedOf(db, stranger).changes).toEqual([]);
  });
});
