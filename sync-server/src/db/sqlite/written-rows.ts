// SQLite's way of noting the rows a transaction writes, for the change feed (db/change-set.ts says what
// they mean). TEMP triggers note each written row in a TEMP table. Both live in this connection only: another
// connection (a test writing rows by hand, a second server process) is not tracked. A TEMP table takes
// part in the transaction like any other, so a rolled-back transaction or savepoint leaves nothing behind.
import type Database from 'better-sqlite3';
import type { WrittenOp, WrittenRow } from '../change-set';

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
  /** The rows written since the last take or forget, in the order they were written. */
  take(): WrittenRow[];
}

/** Creates this connection's TEMP table and triggers; call once per connection, after migrations. */
export function trackWrites(sqlite: Database.Database): WrittenRows {
  sqlite.exec(`CREATE TEMP TABLE written_rows (n INTEGER PRIMARY KEY, tbl TEXT NOT NULL, op TEXT NOT NULL,
    user_id TEXT, id TEXT, article_id TEXT, tag_id TEXT, list_id TEXT)`);
  const ops: [WrittenOp, string, 'NEW' | 'OLD'][] = [
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
  return {
    forget: () => clear.run(),
    take: () => {
      const written = read.all() as WrittenRow[];
      if (written.length > 0) clear.run();
      return written;
    },
  };
}
