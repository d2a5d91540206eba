// Opens PostgreSQL (DATABASE_URL) as the database contract (db/database.ts): pg pools, drizzle's
// node-postgres builder over the PostgreSQL schema, migrations applied at open, and transactions that
// record the change feed before COMMIT without letting a cursor skip a change.
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { changedEntities, type TouchedEntity } from '../change-set';
import type { Db, Orm, PlaceholderValues, Queryable, Tables } from '../database';
import { queryTexts } from '../query-text';
import * as schema from './schema';

/**
 * Records the change feed for what a transaction touched, inside it, before COMMIT: the services'
 * recordTouched, handed in by whoever opens the database (so this file imports no service).
 */
export type RecordFeed = (tx: Queryable, touched: readonly TouchedEntity[]) => Promise<void>;

export interface PostgresOptions {
  /** Without it, transactions record no feed (the template a test database is copied from, tools). */
  recordFeed?: RecordFeed;
  /** Connections this node keeps open at most for reads, and as many for transactions. */
  poolSize?: number;
  /** How long reaching the server at open may take before the open (the start) fails. */
  connectTimeoutMs?: number;
  /**
   * Called after each outermost transaction commits, with the users whose change feed it moved: live
   * updates tell this node's devices (live/feed-signals.ts), as openSqlite's afterCommit does. It must
   * return at once and never throw.
   */
  afterCommit?: (userIds: readonly string[]) => void;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The session lock every node takes around its migrations, so two nodes starting at once don't race. */
const MIGRATION_LOCK = 7_240_415_001;

/**
 * How long a query waits for one of the pool's connections once the server runs. Not the start's short
 * connect timeout: under load (every connection in a transaction, waiting its turn on a user's feed lock)
 * a few seconds' wait is normal, and failing the request then would turn a busy moment into errors.
 */
const POOL_WAIT_MS = 30_000;

/**
 * Counts and sequence keys are `number` in the schema. pg answers bigint and numeric as strings (they may
 * not fit a double); ours are row counts and sequence values, far below 2^53. Set on this pool's own
 * connections and queries, not on pg's global parsers, which other users of pg (pg-boss) keep as they are.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC)
      return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

/**
 * The rows a transaction wrote, as db/change-set.ts's triggers note them: per session, emptied as the
 * transaction reads them before COMMIT (touchedEntities), and at each BEGIN of what a write outside any
 * transaction left. Created by the first transaction of each connection (a DO block, so an existing table
 * costs nothing and raises no notice). Not ON COMMIT DELETE ROWS: that truncates the table's file at every
 * commit, which made each commit wait on the file system (an import's thousands of small transactions
 * took several times as long).
 */
const BEGIN = `BEGIN; DO $$ BEGIN
  IF to_regclass('pg_temp.written_rows') IS NULL THEN
    CREATE TEMP TABLE written_rows (n bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, tbl text NOT NULL,
      op text NOT NULL, user_id text, id text, article_id text, tag_id text, list_id text);
  ELSE
    DELETE FROM pg_temp.written_rows;
  END IF;
END $$`;

type WrittenRow = Parameters<typeof changedEntities>[0][number];

/** Statements kept prepared, per connection, at most: the texts the code writes are far fewer. */
const PREPARED_STATEMENTS = 2_000;

/**
 * Each query text the services send is prepared once per connection and then only executed (pg's named
 * statements): PostgreSQL parses and plans it once instead of on every call, which for the most read route
 * (GET /articles/{id}: its session check and its answer in one query) is most of the database's work, 330
 * µs a call against 85 measured on this machine. Texts are named in the order first seen; past
 * PREPARED_STATEMENTS, or for a text holding several statements (which can't be prepared), a text is sent
 * unnamed as before. PostgreSQL plans a prepared statement for its parameters for its first five runs, then
 * keeps a generic plan only when that plan costs no more than theirs did (plan_cache_mode auto).
 */
class PreparedStatementNames {
  private readonly names = new Map<string, string>();

  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= PREPARED_STATEMENTS || text.includes(';')) return known;
    const name = `lectern_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Db> {
  // Reached, logged into and migrated on a connection of its own, within the start's timeout.
  await migrateOnce(url, options.connectTimeoutMs ?? 10_000);
  // Reads outside a transaction (most requests) and transactions (writes, the job runner's poll every
  // second) each have connections of their own: see IDLE_CONNECTION_MS.
  const poolSize = options.poolSize ?? 10;
  const pool = connectionPool(url, poolSize);
  const transactionPool = connectionPool(url, poolSize);

  const dialect = new PgDialect();
  const tables = schema as unknown as Tables;
  // The one cast between the engines: the services are typed by the SQLite schema's builder (db/database.ts),
  // and the builder calls they make behave the same on this one, whose tables have the same row types
  // (db/schemas-in-step.test.ts fails when the two schemas drift).
  const asOrm = (database: NodePgDatabase<typeof schema>) => database as unknown as Orm;
  const ormOf = new WeakMap<pg.PoolClient, Orm>();

  type Runner = Pick<pg.Pool, 'query'>;
  const statements = new PreparedStatementNames();
  const textOf = queryTexts(dialect);
  const queries = (runner: Runner, orm: Orm) => {
    const render = (query: SQL, values?: PlaceholderValues) => {
      const { text, params } = textOf(query, values);
      const name = statements.nameOf(text);
      return { text, values: params, types, ...(name === undefined ? {} : { name }) };
    };
    return {
      dialect: 'postgres' as const,
      tables,
      orm,
      all: async <Row>(query: SQL, values?: PlaceholderValues) =>
        (await runner.query(render(query, values))).rows as Row[],
      get: async <Row>(query: SQL, values?: PlaceholderValues) =>
        (await runner.query(render(query, values))).rows[0] as Row | undefined,
      run: async (query: SQL, values?: PlaceholderValues) =>
        (await runner.query(render(query, values))).rowCount ?? 0,
    };
  };

  /** A transaction's Queryable: its client's queries; a transaction inside it is a savepoint. */
  const inTransaction = (client: pg.PoolClient): Queryable => {
    let orm = ormOf.get(client);
    if (!orm) {
      orm = asOrm(drizzle(client, { schema }));
      ormOf.set(client, orm);
    }
    let savepoints = 0;
    const tx: Queryable = {
      ...queries(client, orm),
      transaction: async (work) => {
        const name = `lectern_${++savepoints}`;
        await client.query(`SAVEPOINT ${name}`);
        try {
          const result = await work(tx);
          await client.query(`RELEASE SAVEPOINT ${name}`);
          return result;
        } catch (error) {
          await client.query(`ROLLBACK TO SAVEPOINT ${name}`);
          throw error;
        }
      },
    };
    return tx;
  };

  const db: Db = {
    ...queries(pool, asOrm(drizzle(pool, { schema }))),
    transaction: async (work) => {
      const client = await transactionPool.connect();
      let broken: Error | undefined;
      try {
        await client.query(BEGIN);
        const tx = inTransaction(client);
        const result = await work(tx);
        const touched = await touchedEntities(client);
        if (touched.length > 0) {
          await lockFeedsOf(client, touched);
          await options.recordFeed?.(tx, touched);
        }
        await client.query('COMMIT');
        if (touched.length > 0) options.afterCommit?.([...new Set(touched.map((entry) => entry.userId))]);
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        // A connection whose ROLLBACK failed (it broke) is closed rather than handed out again.
        client.release(broken);
      }
    },
    close: async () => {
      await Promise.all([pool.end(), transactionPool.end()]);
    },
  };
  return db;
}

/**
 * How long a connection may stay idle before its pool closes it. Each connection is a PostgreSQL backend
 * process, and a backend's first touch of each shared buffer costs it a page fault: a search that is fast
 * on a backend that ran it before took half as long again on a new one (150 searches of a 50,000-article
 * library, the same buffers cached: p50 6.0 ms and p95 20.2 ms on a new backend against 5.1 and 8.0 once
 * it had run them; about 10,000 faults a pass). pg's default, 10 s, closed them whenever the node paused
 * for that long, so a reader's next searches met new backends. The pools hand out the connection used
 * last first, so a quiet node keeps using its few warm ones; that is also why reads and transactions have
 * pools of their own: in one pool, a transaction beside the reads (the job runner's poll, every second)
 * took a second connection, and whichever of the two was released last served the next read, spreading
 * one reader's searches over two backends, each cold for half of them. And a read never waits for a
 * connection held by a transaction waiting on a user's feed lock.
 */
const IDLE_CONNECTION_MS = 5 * 60_000;

function connectionPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    connectionTimeoutMillis: POOL_WAIT_MS,
    types,
  });
  // An idle connection the server drops (a restart, a failover) is removed from the pool and the next
  // query opens a new one; without a listener, pg's 'error' event would end the process.
  pool.on('error', () => {});
  return pool;
}

/** Applies pending migrations; a node that finds another migrating waits for it, then finds nothing to do. */
async function migrateOnce(url: string, connectTimeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, types });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await client.end();
  }
}

/**
 * The entities this transaction's writes changed (db/change-set.ts's rule, shared by both engines). Its
 * lookups are synchronous there; here they are read first, in two queries, for the rows that need them.
 */
async function touchedEntities(client: pg.PoolClient): Promise<TouchedEntity[]> {
  const written = (
    await client.query<WrittenRow>(
      `WITH taken AS (DELETE FROM pg_temp.written_rows RETURNING *)
       SELECT tbl, op, user_id, id, article_id, tag_id, list_id FROM taken ORDER BY n`,
    )
  ).rows;
  if (written.length === 0) return [];
  const renamedTags = written.filter((row) => row.tbl === 'tags' && row.op === 'update').map((row) => row.id);
  const newHeadings = written.filter((row) => row.tbl === 'article_heading').map((row) => row.id);
  const articlesOfTag = await groupedBy(
    client,
    'SELECT tag_id AS key, article_id AS value FROM article_tags WHERE tag_id = ANY($1)',
    renamedTags,
  );
  const highlightsOfArticle = await groupedBy(
    client,
    'SELECT article_id AS key, id AS value FROM highlights WHERE article_id = ANY($1)',
    newHeadings,
  );
  return changedEntities(written, {
    articlesOfTag: async (tagId) => articlesOfTag.get(tagId) ?? [],
    highlightsOfArticle: async (articleId) => highlightsOfArticle.get(articleId) ?? [],
  });
}

async function groupedBy(
  client: pg.PoolClient,
  query: string,
  keys: (string | null)[],
): Promise<Map<string, string[]>> {
  const groups = new Map<string, string[]>();
  if (keys.length === 0) return groups;
  const { rows } = await client.query<{ key: string; value: string }>(query, [[...new Set(keys)]]);
  for (const { key, value } of rows) groups.set(key, [...(groups.get(key) ?? []), value]);
  return groups;
}

/**
 * Takes each touched user's feed lock, held until this transaction ends, before any of its feed rows is
 * written. change_log.seq comes from a sequence when the row is inserted, but PostgreSQL transactions
 * commit in any order: without the lock, transaction A takes seq 10, B takes 11 and commits first, a
 * device reads 11 and keeps cursor 11, then A commits 10 behind the cursor, a change the device never
 * reads. Holding the user's lock from before the first seq is taken until COMMIT, a second writer of the
 * same user takes its seqs only after the first committed (or rolled back), so each user's feed becomes
 * visible in seq order, and a device reads only its user's rows. Different users don't wait on each other
 * (save for a rare hash collision, which only serialises them). Sorted, so two transactions touching the
 * same users can't deadlock; taken last, after the work, so the lock is held only for the feed's writes.
 */
async function lockFeedsOf(client: pg.PoolClient, touched: readonly TouchedEntity[]): Promise<void> {
  const users = [...new Set(touched.map((entry) => entry.userId))].sort();
  for (const userId of users)
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [userId]);
}
