// The one way the services reach the database, whichever engine holds it: SQLite in ./data (the default)
// or PostgreSQL (DATABASE_URL). Every call is async, on both engines, so one set of services serves both.
//
// Queries are written once. Simple reads and writes use drizzle's query builder on `tables` (rows typed by
// the schema's $inferSelect / $inferInsert); the few a builder can't say (full-text search, aggregates
// over joins, engine-tuned plans) use drizzle's `sql` template with `tables` column references, which each
// engine renders with its own placeholders and quoting, and read their rows through db/typed-select.ts,
// where each answered value is named by a schema column or a decoder: no row type is written by hand. Engine-specific SQL (full-text search, the change feed's triggers)
// lives beside each engine's connection, behind a function both engines provide.
import type { SQL } from 'drizzle-orm';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import type * as schema from './schema';

export type Dialect = 'sqlite' | 'postgres';

/** The tables, as the services see them: the SQLite schema's types, which the PostgreSQL schema matches. */
export type Tables = typeof schema;

/**
 * drizzle's query builder, typed by the SQLite schema. On PostgreSQL it is drizzle's node-postgres
 * database over the PostgreSQL schema: the builder calls the services make (select, insert, update,
 * delete, where, orderBy, limit, returning, onConflictDoNothing / DoUpdate) are the same on both, and a
 * test keeps the two schemas' $inferSelect types equal (db/schemas-in-step.test.ts).
 */
export type Orm = BaseSQLiteDatabase<'sync' | 'async', unknown, Tables>;

/**
 * The values of a query's sql.placeholder()s. A query run with values is rendered into its engine's SQL
 * text once, on its first run, and that text reused while the query object lives: a query the hot path
 * builds once (db/typed-select.ts, preparedSelectFirst) costs no rendering on later calls.
 */
export type PlaceholderValues = Record<string, unknown>;

/** A connection, or a transaction on one: what every service function is handed. */
export interface Queryable {
  readonly dialect: Dialect;
  readonly tables: Tables;
  /**
   * On the Db itself, read with it; write through a transaction's `tx.orm` (on SQLite the Db's builder
   * runs on a connection that refuses writes, so none can land inside another request's transaction).
   */
  readonly orm: Orm;
  /**
   * Every row a query answers, as the engine's driver gives them (a boolean as SQLite's 0 or 1). The
   * services read through db/typed-select.ts, which types and decodes these rows by the schema; a type
   * argument here is for tests looking at what is stored (lint refuses it in the server's code).
   */
  all<Row = Record<string, unknown>>(query: SQL, values?: PlaceholderValues): Promise<Row[]>;
  /** The first row a query answers, or undefined (see `all`). */
  get<Row = Record<string, unknown>>(query: SQL, values?: PlaceholderValues): Promise<Row | undefined>;
  /** Runs a write and answers how many rows it changed (`values`: see `all`). */
  run(query: SQL, values?: PlaceholderValues): Promise<number>;
  /**
   * Runs `work` in one transaction: it all lands or none of it does. Before COMMIT the change feed records
   * every entity the writes changed, derived rows included (db/change-set.ts). Inside another transaction
   * it is a savepoint of that one, recorded at the outer commit. Only database work belongs inside: no
   * fetch, no file, no waiting on anything else, since on SQLite one transaction runs at a time. Inside,
   * use `tx` only: the Db itself (its reads, writes or transaction) throws there rather than hang or read
   * past the transaction's own writes.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
}

/** An open database: a Queryable that can be closed. */
export interface Db extends Queryable {
  close(): Promise<void>;
}
