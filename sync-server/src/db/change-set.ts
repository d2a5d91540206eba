// What one transaction changed, as the change feed sees it: the entities whose rows (as their GET serves
// them) are no longer what they were. Collected from the writes themselves, so no service has to remember
// that a highlight changes its article's highlights_count or a list place its list's article_count.
//
// TEMP triggers note each written row in a TEMP table. Both live in this connection only: another
// connection (a test writing rows by hand, a second server process) is not tracked. A TEMP table takes
// part in the transaction like any other, so a rolled-back transaction or savepoint leaves nothing behind.
import { listArticleKey, type SyncEntity } from '@lectern/shared-schema';
import type Database from 'better-sqlite3';

/** An entity whose feed row changed; `deleted` when the transaction deleted its own row. */
export interface TouchedEntity {
  entity: SyncEntity;
  /** The feed's id (a list place's is listArticleKey(list, article)). */
  id: string;
  userId: string;
  deleted: boolean;
  /** A list place's two halves, for reading its row. */
  place?: { listId: string; articleId: string };
}

type Op = 'insert' | 'update' | 'delete';

/** One row as a trigger noted it: the table, what happened, the row's owner and the ids it refers to. */
interface WrittenRow {
  tbl: string;
  op: Op;
  user_id: string | null;
  id: string | null;
  article_id: string | null;
  tag_id: string | null;
  list_id: string | null;
}

/**
 * The tracked tables: which of a row's columns are noted, how its owner is found (a link row has no
 * user_id; of its two parents one may be the row being deleted, so either will do), and which updates
 * count: a tag's name_key is filled at start and changes nothing a device sees.
 */
const TRACKED: { table: string; columns: string[]; owner: (row: string) => string; updateOf?: string }[] = [
  { table: 'articles', columns: ['id'], owner: (row) => `${row}.user_id` },
  { table: 'highlights', columns: ['id', 'article_id'], owner: (row) => `${row}.user_id` },
  { table: 'tags', columns: ['id'], owner: (row) => `${row}.user_id`, updateOf: 'name' },
  {
    table: 'article_tags',
    columns: ['article_id', 'tag_id'],
    owner: (row) => `coalesce((SELECT user_id FROM main.articles WHERE id = ${row}.article_id),
      (SELECT user_id FROM main.tags WHERE id = ${row}.tag_id))`,
  },
  { table: 'reading_lists', columns: ['id'], owner: (row) => `${row}.user_id` },
  {
    table: 'list_articles',
    columns: ['list_id', 'article_id'],
    owner: (row) => `coalesce((SELECT user_id FROM main.reading_lists WHERE id = ${row}.list_id),
      (SELECT user_id FROM main.articles WHERE id = ${row}.article_id))`,
  },
];

/** This connection's record of written rows (see trackWrites). */
export interface WrittenRows {
  /** Drops what was written outside a transaction: only a transaction's writes are recorded. */
  forget(): void;
  /** The entities written since the last take or forget, derived rows included (see changedEntities). */
  take(): TouchedEntity[];
}

/** Creates this connection's TEMP table and triggers; call once per connection, after migrations. */
export function trackWrites(sqlite: Database.Database): WrittenRows {
  sqlite.exec(`CREATE TEMP TABLE written_rows (n INTEGER PRIMARY KEY, tbl TEXT NOT NULL, op TEXT NOT NULL,
    user_id TEXT, id TEXT, article_id TEXT, tag_id TEXT, list_id TEXT)`);
  const ops: [Op, string, 'NEW' | 'OLD'][] = [
    ['insert', 'INSERT', 'NEW'],
    ['update', 'UPDATE', 'NEW'],
    ['delete', 'DELETE', 'OLD'],
  ];
  for (const { table, columns, owner, updateOf } of TRACKED) {
    for (const [op, event, row] of ops) {
      if (table === 'article_tags' && op === 'update') continue; // link rows are only added and removed
      const on = op === 'update' && updateOf ? `UPDATE OF ${updateOf}` : event;
      const values = columns.map((column) => `${row}.${column}`).join(', ');
      sqlite.exec(
        `CREATE TEMP TRIGGER written_${table}_${op} AFTER ${on} ON main.${table} BEGIN
           INSERT INTO written_rows (tbl, op, user_id, ${columns.join(', ')})
           VALUES ('${table}', '${op}', ${owner(row)}, ${values});
         END`,
      );
    }
  }
  // A highlight's row carries its article's title and image (article_title, article_image): a new title
  // (an imported page fetched) or image (archived on the server) changes every highlight of the article.
  sqlite.exec(
    `CREATE TEMP TRIGGER written_articles_heading AFTER UPDATE OF title, image_url ON main.articles
       WHEN OLD.title IS NOT NEW.title OR OLD.image_url IS NOT NEW.image_url BEGIN
       INSERT INTO written_rows (tbl, op, user_id, id) VALUES ('article_heading', 'update', NEW.user_id, NEW.id);
     END`,
  );
  const read = sqlite.prepare('SELECT * FROM temp.written_rows ORDER BY n');
  const clear = sqlite.prepare('DELETE FROM temp.written_rows');
  const articlesOfTag = sqlite.prepare('SELECT article_id FROM main.article_tags WHERE tag_id = ?').pluck();
  const highlightsOfArticle = sqlite.prepare('SELECT id FROM main.highlights WHERE article_id = ?').pluck();
  return {
    forget: () => clear.run(),
    take: () => {
      const written = read.all() as WrittenRow[];
      if (written.length === 0) return [];
      clear.run();
      return changedEntities(written, {
        articlesOfTag: (tagId) => articlesOfTag.all(tagId) as string[],
        highlightsOfArticle: (articleId) => highlightsOfArticle.all(articleId) as string[],
      });
    },
  };
}

/**
 * The entities these writes changed, each once, in the order they were first changed, with the derived
 * rows: a highlight added or removed changes its article (highlights_count), a tag attached or detached
 * changes the article (its tags) and the tag (article_count), a renamed tag every article carrying it
 * (their tags by name), a list place added or removed its list (article_count). Deleting an article, a tag
 * or a list deletes their link rows by cascade, and those count the same way. An article's new title or
 * image changes its highlights (article_title, article_image).
 */
export function changedEntities(
  written: readonly WrittenRow[],
  related: {
    articlesOfTag: (tagId: string) => string[];
    highlightsOfArticle: (articleId: string) => string[];
  },
): TouchedEntity[] {
  const touched = new Map<string, TouchedEntity>();
  const touch = (
    entity: SyncEntity,
    id: string,
    userId: string,
    deleted = false,
    place?: TouchedEntity['place'],
  ) => {
    const key = `${entity} ${id}`;
    const known = touched.get(key);
    if (known) known.deleted ||= deleted;
    else touched.set(key, { entity, id, userId, deleted, ...(place ? { place } : {}) });
  };
  for (const row of written) {
    const userId = row.user_id;
    if (userId === null) continue; // its owner is gone too (account deletion): nothing to tell
    const deleted = row.op === 'delete';
    const addsOrRemoves = row.op !== 'update'; // changes its parent's count
    switch (row.tbl) {
      case 'articles':
        touch('article', row.id!, userId, deleted);
        break;
      case 'highlights':
        touch('highlight', row.id!, userId, deleted);
        if (addsOrRemoves) touch('article', row.article_id!, userId);
        break;
      case 'tags':
        touch('tag', row.id!, userId, deleted);
        if (row.op === 'update')
          for (const articleId of related.articlesOfTag(row.id!)) touch('article', articleId, userId);
        break;
      case 'article_heading':
        for (const highlightId of related.highlightsOfArticle(row.id!))
          touch('highlight', highlightId, userId);
        break;
      case 'article_tags':
        touch('article', row.article_id!, userId);
        touch('tag', row.tag_id!, userId);
        break;
      case 'reading_lists':
        touch('list', row.id!, userId, deleted);
        break;
      case 'list_articles': {
        const place = { listId: row.list_id!, articleId: row.article_id! };
        touch('list_article', listArticleKey(place.listId, place.articleId), userId, deleted, place);
        if (addsOrRemoves) touch('list', place.listId, userId);
        break;
      }
    }
  }
  return [...touched.values()];
}
