// GET /auth/export: every row of the user, content included, no password hash, as one JSON document.
// It is written out piece by piece (one article at a time) instead of being built in memory: a library of
// thousands of articles with their bodies would otherwise be held whole, twice, while it is sent.
import { eq } from 'drizzle-orm';
import { PRODUCT_NAME } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
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
async function* arrayMember<T>(
  name: string,
  items: Iterable<T | undefined> | AsyncIterable<T | undefined>,
): AsyncGenerator<string> {
  yield `,\n  ${JSON.stringify(name)}: [`;
  let first = true;
  for await (const item of items) {
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
export async function* exportDocument(db: Queryable, userId: string): AsyncGenerator<string> {
  const user = await getUser(db, userId);
  yield `{\n  "product": ${JSON.stringify(PRODUCT_NAME)},\n  "exported_at": ${JSON.stringify(nowIso())}`;
  yield `,\n  "user": ${nested(user, 1)}`;
  const { articles, listArticles } = db.tables;
  const articleIds = await db.orm
    .select({ id: articles.id })
    .from(articles)
    .where(eq(articles.userId, userId))
    .orderBy(articles.createdAt, articles.id);
  yield* arrayMember(
    'articles',
    (async function* () {
      for (const { id } of articleIds) yield await findArticle(db, userId, id);
    })(),
  );
  yield* arrayMember('tags', await listTags(db, userId));
  const lists = [];
  for (const list of await listLists(db, userId)) {
    const places = await db.orm
      .select({ articleId: listArticles.articleId })
      .from(listArticles)
      .where(eq(listArticles.listId, list.id))
      .orderBy(listArticles.position);
    lists.push({ ...list, article_ids: places.map((place) => place.articleId) });
  }
  yield* arrayMember('lists', lists);
  yield* arrayMember('highlights', (await listHighlights(db, userId)).highlights);
  yield '\n}';
}
