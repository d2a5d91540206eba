// The change feed of DESIGN.md section 3: `GET /api/sync/changes?since=&limit=`.
import { Type, type Static } from 'typebox';
import { Article, Highlight, ListArticle, ReadingList, Tag } from './entities';

export const SyncEntity = Type.Union([
  Type.Literal('article'),
  Type.Literal('highlight'),
  Type.Literal('tag'),
  Type.Literal('list'),
  Type.Literal('list_article'),
]);
export type SyncEntity = Static<typeof SyncEntity>;

export const ChangeOp = Type.Union([Type.Literal('upsert'), Type.Literal('delete')]);
export type ChangeOp = Static<typeof ChangeOp>;

/** `row` is the entity as its own GET serves it; null for a delete (a tombstone). */
export const Change = Type.Object({
  seq: Type.Integer(),
  entity: SyncEntity,
  id: Type.String(),
  op: ChangeOp,
  row: Type.Union([Article, Highlight, Tag, ReadingList, ListArticle, Type.Null()]),
});
export type Change = Static<typeof Change>;

export const ChangesResponse = Type.Object({
  cursor: Type.Integer(),
  hasMore: Type.Boolean(),
  changes: Type.Array(Change),
});
export type ChangesResponse = Static<typeof ChangesResponse>;

/** The change feed's id of an article's place in a list. */
export function listArticleKey(listId: string, articleId: string): string {
  return `${listId}:${articleId}`;
}
