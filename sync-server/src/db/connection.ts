// Opens the SQLite file, sets it up for a server (WAL, synchronous=FULL, foreign keys) and applies pending migrations.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeArticleUrl } from '@lectern/shared-schema';
import { privateFile, restrictMode } from '../private-files';
import { recordTouched } from '../services/feed-rows';
import { trackWrites, type TouchedEntity } from './change-set';

export interface Db {
  sqlite: Database.Database;
  /** A prepared statement, compiled once per SQL text and reused. */
  statement(sql: string): Database.Statement;
  /**
   * Runs `work` in one transaction: it all lands or none of it does. Before COMMIT, the change feed records
   * every entity the writes changed, derived rows included (db/change-set.ts). Inside another transaction
   * it is a savepoint of that one, which records at its own commit.
   */
  transaction<T>(work: () => T): T;
  close(): void;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenDatabaseOptions {
  /**
   * Called after each outermost transaction commits, with the users whose change feed it moved: live
   * updates tell their devices (live/feed-signals.ts). It must return at once and never throw.
   */
  afterCommit?: (userIds: readonly string[]) => void;
}

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true });
    // Readable by the server's user only; the WAL and shared-memory files SQLite makes take its mode.
    privateFile(file);
  }
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  if (file !== ':memory:')
    for (const companion of [`${file}-wal`, `${file}-shm`])
      if (existsSync(companion)) restrictMode(companion, 0o600);
  // FULL: a write the server has answered survives a power cut too. With NORMAL, WAL mode may lose the
  // last transactions, and a client drops its outbox entry once answered, so they would be gone for good.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // drizzle only runs the migrations: the services speak SQL through `statement`.
  migrate(drizzle(sqlite), { migrationsFolder });
  backfillNormalizedUrls(sqlite);
  const written = trackWrites(sqlite);
  const statements = new Map<string, Database.Statement>();
  const db: Db = {
    sqlite,
    statement: (sql) => {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    transaction: <T>(work: () => T): T => {
      if (sqlite.inTransaction) return sqlite.transaction(work)();
      let touched: readonly TouchedEntity[] = [];
      const result = sqlite
        .transaction(() => {
          // Writes outside any transaction record nothing, as they never did; every service writes in one.
          written.forget();
          const result = work();
          touched = written.take();
          recordTouched(db, touched);
          return result;
        })
        .immediate();
      if (touched.length > 0) options.afterCommit?.([...new Set(touched.map((entry) => entry.userId))]);
      return result;
    },
    close: () => sqlite.close(),
  };
  return db;
}

/**
 * Articles saved before the normalized_url column existed get it once, here: SQL can't run the shared
 * normalisation, so the migration adds the column and this fills it. On every later start the check reads
 * a partial index of only the rows still missing it (migration 0008), empty by then: start-up reads no
 * article, however large the library.
 */
function backfillNormalizedUrls(sqlite: Database.Database): void {
  const missing = sqlite
    .prepare(
      'SELECT seq FROM articles INDEXED BY articles_missing_normalized_url_idx WHERE normalized_url IS NULL',
    )
    .pluck()
    .all() as number[];
  if (missing.length === 0) return;
  const urlOf = sqlite.prepare('SELECT url FROM articles WHERE seq = ?').pluck();
  const fill = sqlite.prepare('UPDATE articles SET normalized_url = ? WHERE seq = ?');
  sqlite.transaction(() => {
    for (const seq of missing) fill.run(normalizeArticleUrl(urlOf.get(seq) as string), seq);
  })();
}
