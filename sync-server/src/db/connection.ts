// The database contract (db/database.ts) on SQLite: opens the file, sets it up for a server (WAL,
// synchronous=FULL, foreign keys) and applies pending migrations.
//
// better-sqlite3 is synchronous and its own transaction() can't wait on an async callback, so the
// contract's transactions are built here. There is one write connection and one transaction at a time
// (TransactionQueue, first come first served): BEGIN IMMEDIATE, the work awaited with a `tx` bound to that
// connection, the change feed recorded, COMMIT; ROLLBACK when anything throws. A write on the Db itself
// waits its turn the same way. Reads on the Db itself go to a second connection on the same file, which
// WAL lets read the last committed state while a transaction is open: no reader ever sees another
// request's uncommitted writes. An in-memory database can't be shared by two connections, so ':memory:'
// (unit tests only) reads on its one connection.
import Database from 'better-sqlite3';
import type { SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeArticleUrl } from '@lectern/shared-schema';
import { privateFile, restrictMode } from '../private-files';
import { declareSearchFunctions, SEARCH_VOCABULARY } from '../services/search-sqlite';
import { recordTouched } from '../services/feed-rows';
import { touchedBy } from './change-set';
import type { Db, Orm, PlaceholderValues, Queryable } from './database';
import { queryTexts } from './query-text';
import * as schema from './schema';
import { trackWrites } from './sqlite/written-rows';
import { TransactionQueue } from './transaction-queue';

export type { Db, Queryable } from './database';

/** The SQLite Db, with its write connection for what only SQLite has (pragmas in tests and benchmarks). */
export interface SqliteDb extends Db {
  readonly sqlite: Database.Database;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const dialect = new SQLiteSyncDialect();

export interface OpenSqliteOptions {
  /**
   * Called after each outermost transaction commits, with the users whose change feed it moved: live
   * updates tell their devices (live/feed-signals.ts). It must return at once and never throw.
   */
  afterCommit?: (userIds: readonly string[]) => void;
}

/**
 * What search needs on each connection (services/search-sqlite.ts): the words the article index holds, in
 * order (FTS5's vocabulary table over articles_fts), whose words a long last word begins, and the function
 * ranking a match by its fields. The table is temporary, declared at each open: nothing is stored, and the
 * index it reads is the one migrated.
 */
function prepareSearch(connection: Database.Database): void {
  connection.exec(
    `CREATE VIRTUAL TABLE temp.${SEARCH_VOCABULARY} USING fts5vocab(main, articles_fts, 'row')`,
  );
  declareSearchFunctions(connection);
}

export function openSqlite(file: string, options: OpenSqliteOptions = {}): SqliteDb {
  const inMemory = file === ':memory:';
  if (!inMemory) {
    mkdirSync(dirname(file), { recursive: true });
    // Readable by the server's user only; the WAL and shared-memory files SQLite makes take its mode.
    privateFile(file);
  }
  const writer = new Database(file);
  writer.pragma('journal_mode = WAL');
  if (!inMemory)
    for (const companion of [`${file}-wal`, `${file}-shm`])
      if (existsSync(companion)) restrictMode(companion, 0o600);
  // FULL: a write the server has answered survives a power cut too. With NORMAL, WAL mode may lose the
  // last transactions, and a client drops its outbox entry once answered, so they would be gone for good.
  writer.pragma('synchronous = FULL');
  writer.pragma('foreign_keys = ON');
  writer.pragma('busy_timeout = 5000');
  migrate(drizzle(writer), { migrationsFolder });
  backfillNormalizedUrls(writer);
  const written = trackWrites(writer);

  prepareSearch(writer);
  const reader = inMemory ? writer : new Database(file);
  if (reader !== writer) {
    reader.pragma('busy_timeout = 5000');
    prepareSearch(reader);
    // The Db's own reads and its builder (`orm`) run here: a write through them fails at once instead of
    // landing outside the one-at-a-time queue, possibly inside another request's transaction.
    reader.pragma('query_only = ON');
  }

  const queue = new TransactionQueue();
  const writerStatements = statementsOf(writer);
  const readerStatements = reader === writer ? writerStatements : statementsOf(reader);
  const writes = queries(writerStatements);
  const reads = queries(readerStatements);
  const writeOrm = drizzle({ client: builderClient(writer, writerStatements), schema }) as unknown as Orm;
  const readOrm =
    reader === writer
      ? writeOrm
      : (drizzle({ client: builderClient(reader, readerStatements), schema }) as unknown as Orm);
  let savepoints = 0;
  // The transaction the running code is inside, if any. A call on the Db itself from inside one is a
  // mistake that would otherwise hang (a transaction or write waits for the one it is part of) or read
  // past the transaction's own writes (reads go to the other connection): it throws instead.
  // The check runs under the test runner only: on Node 20 an AsyncLocalStorage in use slows every promise
  // of the process (measured: GET /api/articles/{id} took a third more CPU), and the tests are where such a
  // mistake is found.
  const inside = process.env.VITEST ? new AsyncLocalStorage<{ open: boolean }>() : undefined;
  const outside = () => {
    if (inside?.getStore()?.open)
      throw new Error('Inside a transaction, use its handle (tx), not the database itself.');
  };

  /** A Queryable bound to the write connection while one transaction (or savepoint) is open. */
  const transactionHandle = (): { tx: Queryable; end(): void } => {
    let open = true;
    const check = () => {
      if (!open) throw new Error('This transaction has ended: its handle can no longer be used.');
    };
    const tx: Queryable = {
      dialect: 'sqlite',
      tables: schema,
      get orm() {
        check();
        return writeOrm;
      },
      all: async (query, values) => (check(), writes.all(query, values)),
      get: async (query, values) => (check(), writes.get(query, values)),
      run: async (query, values) => (check(), writes.run(query, values)),
      transaction: async (work) => {
        check();
        // A savepoint of this transaction: its writes are recorded at the outer COMMIT.
        const name = `nested_${++savepoints}`;
        writer.exec(`SAVEPOINT ${name}`);
        const nested = transactionHandle();
        try {
          const result = await work(nested.tx);
          writer.exec(`RELEASE ${name}`);
          return result;
        } catch (error) {
          writer.exec(`ROLLBACK TO ${name}`);
          writer.exec(`RELEASE ${name}`);
          throw error;
        } finally {
          nested.end();
        }
      },
    };
    return { tx, end: () => (open = false) };
  };

  const db: SqliteDb = {
    dialect: 'sqlite',
    tables: schema,
    orm: readOrm,
    sqlite: writer,
    all: async (query, values) => (outside(), reads.all(query, values)),
    get: async (query, values) => (outside(), reads.get(query, values)),
    // Outside any transaction a write records nothing in the feed, as it never did: every service writes
    // in a transaction.
    run: async (query, values) => (outside(), queue.run(() => writes.run(query, values))),
    transaction: async (work) => (
      outside(),
      queue.run(async () => {
        writer.exec('BEGIN IMMEDIATE');
        const { tx, end } = transactionHandle();
        const state = { open: true };
        try {
          written.forget();
          const result = await (inside ? inside.run(state, () => work(tx)) : work(tx));
          const touched = await touchedBy(tx, written.take());
          await recordTouched(tx, touched);
          writer.exec('COMMIT');
          if (touched.length > 0) options.afterCommit?.([...new Set(touched.map((entry) => entry.userId))]);
          return result;
        } catch (error) {
          if (writer.inTransaction) writer.exec('ROLLBACK');
          throw error;
        } finally {
          state.open = false;
          end();
        }
      })
    ),
    close: async () => {
      // Waits for the transactions already queued, then closes.
      await queue.run(() => {
        if (reader !== writer) reader.close();
        writer.close();
      });
    },
  };
  return db;
}

/** Statements kept prepared on a connection: the server's queries' texts are few, but not bounded. */
const STATEMENTS_KEPT = 500;

/**
 * The connection's statements by SQL text, each prepared once and reused (the most recently used
 * STATEMENTS_KEPT of them), for the server's own queries and drizzle's builder alike: drizzle prepares every
 * query it runs anew, and SQLite compiling the text was a fifth of the CPU of writing an import's rows (a
 * thousand microseconds a row). A statement handed out again is out of raw mode, as a new one is: drizzle
 * turns it on for the reads that want it.
 */
function statementsOf(connection: Database.Database): (source: string) => Database.Statement {
  const kept = new Map<string, Database.Statement>();
  return (source) => {
    let statement = kept.get(source);
    if (statement) {
      kept.delete(source);
      if (statement.reader) statement.raw(false);
    } else {
      statement = connection.prepare(source);
      if (kept.size >= STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
    }
    kept.set(source, statement);
    return statement;
  };
}

/** The connection as drizzle's builder sees it: its statements from `prepare` (statementsOf). */
function builderClient(
  connection: Database.Database,
  prepare: (source: string) => Database.Statement,
): Database.Database {
  // Asserted: drizzle's better-sqlite3 session calls only these two on its client.
  return { prepare, transaction: connection.transaction.bind(connection) } as unknown as Database.Database;
}

/** all / get / run on one connection, with its statements from `statementOf`. */
function queries(statementOf: (source: string) => Database.Statement) {
  const textOf = queryTexts(dialect);
  const prepare = (query: SQL, values?: PlaceholderValues) => {
    const { text, params } = textOf(query, values);
    const statement = statementOf(text);
    // SQLite has no boolean: it stores 1 and 0 (better-sqlite3 refuses true and false).
    for (let i = 0; i < params.length; i++) if (typeof params[i] === 'boolean') params[i] = params[i] ? 1 : 0;
    return { statement, params };
  };
  return {
    all: <Row>(query: SQL, values?: PlaceholderValues): Row[] => {
      const { statement, params } = prepare(query, values);
      return statement.all(...params) as Row[];
    },
    get: <Row>(query: SQL, values?: PlaceholderValues): Row | undefined => {
      const { statement, params } = prepare(query, values);
      return statement.get(...params) as Row | undefined;
    },
    run: (query: SQL, values?: PlaceholderValues): number => {
      const { statement, params } = prepare(query, values);
      return statement.run(...params).changes;
    },
  };
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
