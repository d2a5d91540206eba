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

/**
 * POST /api/articles/bodies: the asked-for bodies in the order asked, as far as BODIES_ANSWER_BYTES allows;
 * `unknown` names ids that are no article of the caller's (gone, or never theirs). Ids in neither were left
 * for another call.
 */
export const BodiesResponse = Type.Object({
  bodies: Type.Array(
    Type.Object({
      id: Type.String(),
      content: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  unknown: Type.Array(Type.String()),
});
export type BodiesResponse = Static<typeof BodiesResponse>;

/** The change feed's id of an article's place in a list. */
export function listArticleKey(listId: string, articleId: string): string {
  return `${listId}:${articleId}`;
}
