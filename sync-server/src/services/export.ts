// GET /auth/export: every row of the user, content included, no password hash, as one JSON document.
// It is written out piece by piece (one article at a time) instead of being built in memory: a library of
// thousands of articles with their bodies would otherwise be held whole, twice, while it is sent.
import { PRODUCT_NAME } from '@lectern/shared-schema';
import type { Db } from '../db/connection';
import { findArticle } from './article-rows';
import { nowIso } from './change-log';
import { listHighlights } from './highlights';
import { listLists } from './lists';
import { listTags } from './tags';
import { getUser } from './users';

/** `value` as JSON.stringify(…, null, 2) writes it `depth` levels deep inside the document. */
function nested(value: unknown, depth: number): string {
  return JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`);
}

/** One top-level array, item by item, laid out exactly as JSON.stringify(document, null, 2) would. */
function* arrayMember<T>(name: string, items: Iterable<T | undefined>): Generator<string> {
  yield `,\n  ${JSON.stringify(name)}: [`;
  let first = true;
  for (const item of items) {
    if (item === undefined) continue;
    yield `${first ? '' : ','}\n    ${nested(item, 2)}`;
    first = false;
  }
  yield first ? ']' : '\n  ]';
}

/**
 * The export document in pieces: the same text as JSON.stringify({product, exported_at, user, articles,
 * tags, lists, highlights}, null, 2). Articles are read one at a time as the pieces are asked for; one
 * deleted meanwhile is left out.
 */
export function* exportDocument(db: Db, userId: string): Generator<string> {
  const user = getUser(db, userId);
  yield `{\n  "product": ${JSON.stringify(PRODUCT_NAME)},\n  "exported_at": ${JSON.stringify(nowIso())}`;
  yield `,\n  "user": ${nested(user, 1)}`;
  const articleIds = (
    db.statement('SELECT id FROM articles WHERE user_id = ? ORDER BY created_at, id').all(userId) as {
      id: string;
    }[]
  ).map((row) => row.id);
  yield* arrayMember(
    'articles',
    (function* () {
      for (const id of articleIds) yield findArticle(db, userId, id);
    })(),
  );
  yield* arrayMember('tags', listTags(db, userId));
  const placesOf = (listId: string) =>
    (
      db
        .statement('SELECT article_id FROM list_articles WHERE list_id = ? ORDER BY position')
        .all(listId) as { article_id: string }[]
    ).map((row) => row.article_id);
  yield* arrayMember(
    'lists',
    listLists(db, userId).map((list) => ({ ...list, article_ids: placesOf(list.id) })),
  );
  yield* arrayMember('highlights', listHighlights(db, userId).highlights);
  yield '\n}';
}
