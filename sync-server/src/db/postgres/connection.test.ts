// The database contract on PostgreSQL: typed rows through the builder, numbers where the schema says
// number, transactions and savepoints that land all or nothing, and the change feed told about every entity
// a transaction's writes changed, derived rows included (the rule of db/change-set.ts), recorded only when
// the transaction commits.
import { eq, sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, stopTestCluster } from '../../testing/postgres-cluster';
import type { TouchedEntity } from '../change-set';
import type { Db } from '../database';
import { openPostgres } from './connection';

afterAll(stopTestCluster);

const AT = '2030-01-01T00:00:00.000Z';
let url: string;
let db: Db;
/** What each committed transaction handed to the feed. */
let recorded: TouchedEntity[][];

beforeEach(async () => {
  url = await createTestDatabase();
  recorded = [];
  db = await openPostgres(url, {
    recordFeed: async (_tx, touched) => {
      recorded.push([...touched]);
    },
  });
  await db.orm.insert(db.tables.users).values({ id: 'reader', email: 'r@example.com', createdAt: AT });
});
afterEach(() => db.close());

const touched = (entity: TouchedEntity['entity'], id: string, deleted = false) =>
  expect.objectContaining({ entity, id, userId: 'reader', deleted });

async function addArticle(id: string, title = `Title of ${id}`) {
  await db.orm.insert(db.tables.articles).values({
    id,
    userId: 'reader',
    url: `https://example.org/${id}`,
    title,
    articleType: 'web',
    createdAt: AT,
    updatedAt: AT,
  });
}

describe('rows and values', () => {
  it('answers booleans, sequence keys, counts and reals as the schema types them', async () => {
    await addArticle('a1');
    const [article] = await db.orm.select().from(db.tables.articles);
    expect(article).toMatchObject({
      id: 'a1',
      seq: 1,
      isRead: false,
      readingProgress: 0,
      imagesPending: false,
    });
    expect(await db.get(sql`SELECT count(*) AS n, sum(seq)::numeric AS total FROM articles`)).toEqual({
      n: 1,
      total: 1,
    });
    expect(await db.run(sql`UPDATE articles SET is_read = ${true} WHERE id = ${'a1'}`)).toBe(1);
    expect(await db.all(sql`SELECT id, is_read FROM ${db.tables.articles}`)).toEqual([
      { id: 'a1', is_read: true },
    ]);
  });

  it("leaves pg's own parsers as they were (pg-boss and others keep strings for bigint)", () => {
    expect(pg.types.getTypeParser(20, 'text')('5')).toBe('5');
  });
});

describe('prepared statements', () => {
  it('keeps each query text prepared on its connection, with its values given at each run', async () => {
    // One connection, so the statements seen are those of the connection that ran the query.
    await db.transaction(async (tx) => {
      const query = (n: number) => sql`SELECT ${n}::int + 1 AS next /* lectern-probe */`;
      expect(await tx.get(query(1))).toEqual({ next: 2 });
      expect(await tx.get(query(41))).toEqual({ next: 42 });
      const once = sql`SELECT ${sql.placeholder('n')}::int * 2 AS twice /* lectern-probe-2 */`;
      expect(await tx.get(once, { n: 4 })).toEqual({ twice: 8 });
      expect(await tx.get(once, { n: 21 })).toEqual({ twice: 42 });
      const names = (
        await tx.all<{ name: string }>(
          sql`SELECT name FROM pg_prepared_statements WHERE statement LIKE ${'%lectern-probe%'}`,
        )
      ).map((row) => row.name);
      // Each text once, however often it ran (the pattern asked for is a value, not in this one's text).
      expect(names).toHaveLength(2);
      expect(new Set(names).size).toBe(2);
      // A text holding two statements can't be prepared (PostgreSQL refuses it): it runs unnamed.
      await tx.run(sql`SELECT 1 /* lectern-probe-3 */; SELECT 2`);
    });
  });
});

describe('transactions', () => {
  it('land nothing, and record nothing, when the work throws', async () => {
    await expect(
      db.transaction(async (tx) => {
        await addArticleIn(tx, 'a1');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.orm.select().from(db.tables.articles)).toEqual([]);
    expect(recorded).toEqual([]);
  });

  it('undo only a failed savepoint, and record only what committed', async () => {
    await db.transaction(async (tx) => {
      await addArticleIn(tx, 'kept');
      await tx
        .transaction(async (inner) => {
          await addArticleIn(inner, 'undone');
          throw new Error('inner');
        })
        .catch(() => undefined);
      await tx.transaction((inner) => addArticleIn(inner, 'nested'));
    });
    const ids = (await db.orm.select({ id: db.tables.articles.id }).from(db.tables.articles)).map(
      (row) => row.id,
    );
    expect(ids.sort()).toEqual(['kept', 'nested']);
    expect(recorded).toEqual([[touched('article', 'kept'), touched('article', 'nested')]]);
  });

  it('record nothing for writes outside a transaction, and let sessions without the feed table write', async () => {
    await addArticle('a1');
    const psql = new pg.Client({ connectionString: url });
    await psql.connect();
    await psql.query(`UPDATE articles SET title = 'By hand' WHERE id = 'a1'`);
    await psql.end();
    await db.transaction(async () => undefined);
    expect(recorded).toEqual([]);
    expect((await db.orm.select().from(db.tables.articles))[0]?.title).toBe('By hand');
  });
});

describe('connections', () => {
  const backend = async (on: Pick<Db, 'get'>) =>
    (await on.get<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`))?.pid;

  it('keep serving reads from the backend that served the last one while a transaction runs', async () => {
    // A backend is slow on its first run of a query (docs/performance.md): a transaction meanwhile (the
    // job runner's poll, every second) must not move the next reads to another one.
    const reader = await backend(db);
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let inTransaction: number | undefined;
    const transaction = db.transaction(async (tx) => {
      inTransaction = await backend(tx);
      await held;
    });
    try {
      await expect.poll(() => inTransaction).toBeDefined();
      expect(inTransaction).not.toBe(reader);
      expect(await backend(db)).toBe(reader);
    } finally {
      finish();
      await transaction;
    }
    expect(await backend(db)).toBe(reader);
  });

  it('answer a read while every transaction connection of the node waits for a lock', async () => {
    const small = await openPostgres(url, { poolSize: 2 });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(42)');
      const waiting = [1, 2].map(() =>
        small.transaction((tx) => tx.run(sql`SELECT pg_advisory_xact_lock(42)`)),
      );
      await expect
        .poll(
          async () =>
            (
              await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted`)
            )?.n,
        )
        .toBe(2);
      expect(await small.get(sql`SELECT count(*) AS n FROM articles`)).toEqual({ n: 0 });
      await holder.query('SELECT pg_advisory_unlock(42)');
      await Promise.all(waiting);
    } finally {
      await holder.end();
      await small.close();
    }
  });
});

async function addArticleIn(tx: Db | Parameters<Parameters<Db['transaction']>[0]>[0], id: string) {
  await tx.orm.insert(tx.tables.articles).values({
    id,
    userId: 'reader',
    url: `https://example.org/${id}`,
    title: id,
    articleType: 'web',
    createdAt: AT,
    updatedAt: AT,
  });
}

describe('the entities a transaction changed', () => {
  beforeEach(async () => {
    await addArticle('a1');
    await addArticle('a2');
    const { tags, articleTags, highlights, readingLists, listArticles } = db.tables;
    await db.orm
      .insert(tags)
      .values({ id: 't1', userId: 'reader', name: 'Soil', createdAt: AT, updatedAt: AT });
    await db.orm.insert(articleTags).values([
      { articleId: 'a1', tagId: 't1', createdAt: AT },
      { articleId: 'a2', tagId: 't1', createdAt: AT },
    ]);
    await db.orm.insert(highlights).values({
      id: 'h1',
      userId: 'reader',
      articleId: 'a1',
      highlightedText: 'kale and compost',
      positionStart: 0,
      positionEnd: 16,
      createdAt: AT,
      updatedAt: AT,
    });
    await db.orm
      .insert(readingLists)
      .values({ id: 'l1', userId: 'reader', name: 'Later', shareId: 's1', createdAt: AT, updatedAt: AT });
    await db.orm.insert(listArticles).values({ listId: 'l1', articleId: 'a1', position: 0, addedAt: AT });
  });

  const inTransaction = (work: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<unknown>) =>
    db.transaction(async (tx) => {
      await work(tx);
    });

  it('a renamed tag changes every article carrying it', async () => {
    const { tags } = db.tables;
    await inTransaction((tx) => tx.orm.update(tags).set({ name: 'Loam' }).where(eq(tags.id, 't1')));
    expect(recorded).toEqual([[touched('tag', 't1'), touched('article', 'a1'), touched('article', 'a2')]]);
  });

  it("a tag's name_key filled in changes nothing a device sees", async () => {
    const { tags } = db.tables;
    await inTransaction((tx) => tx.orm.update(tags).set({ nameKey: 'soil' }).where(eq(tags.id, 't1')));
    expect(recorded).toEqual([]);
  });

  it("an article's new title changes its highlights; its reading progress does not", async () => {
    const { articles } = db.tables;
    await inTransaction((tx) =>
      tx.orm.update(articles).set({ title: 'Fetched' }).where(eq(articles.id, 'a1')),
    );
    expect(recorded.at(-1)).toEqual(
      expect.arrayContaining([touched('article', 'a1'), touched('highlight', 'h1')]),
    );
    await inTransaction((tx) =>
      tx.orm.update(articles).set({ readingProgress: 0.5 }).where(eq(articles.id, 'a1')),
    );
    expect(recorded.at(-1)).toEqual([touched('article', 'a1')]);
  });

  it('a highlight added changes its article (highlights_count)', async () => {
    await inTransaction((tx) =>
      tx.orm.insert(tx.tables.highlights).values({
        id: 'h2',
        userId: 'reader',
        articleId: 'a2',
        highlightedText: 'seed and soil',
        positionStart: 0,
        positionEnd: 13,
        createdAt: AT,
        updatedAt: AT,
      }),
    );
    expect(recorded).toEqual([[touched('highlight', 'h2'), touched('article', 'a2')]]);
  });

  it('deleting an article deletes its highlights, tag links and list place, each in the feed', async () => {
    const { articles } = db.tables;
    await inTransaction((tx) => tx.orm.delete(articles).where(eq(articles.id, 'a1')));
    const [changes = []] = recorded;
    expect(changes).toEqual(
      expect.arrayContaining([
        touched('article', 'a1', true),
        touched('highlight', 'h1', true),
        touched('tag', 't1'),
        touched('list', 'l1'),
        expect.objectContaining({
          entity: 'list_article',
          deleted: true,
          place: { listId: 'l1', articleId: 'a1' },
        }),
      ]),
    );
  });

  it('an account deleted with its rows tells nobody', async () => {
    await inTransaction((tx) => tx.orm.delete(tx.tables.users).where(eq(tx.tables.users.id, 'reader')));
    // The cascade's deletes reach the recorder in the same transaction, still naming their owner, who is
    // gone: the feed's recorder skips them (recordTouched).
    expect(recorded).toEqual([
      expect.arrayContaining([
        touched('article', 'a1', true),
        touched('article', 'a2', true),
        touched('highlight', 'h1', true),
      ]),
    ]);
    for (const entry of recorded.flat()) expect(entry.userId).toBe('reader');
    expect(await db.orm.select().from(db.tables.articles)).toEqual([]);
  });
});

describe('opening', () => {
  it('lets several nodes start at once on a new database: one migrates, the others wait and find it done', async () => {
    const fresh = await createTestDatabase();
    const admin = new pg.Client({ connectionString: fresh });
    await admin.connect();
    await admin.query(
      'DROP SCHEMA public CASCADE; CREATE SCHEMA public; DROP SCHEMA IF EXISTS drizzle CASCADE',
    );
    await admin.end();
    const nodes = await Promise.all([openPostgres(fresh), openPostgres(fresh), openPostgres(fresh)]);
    const [first] = nodes;
    const journal = readFileSync(new URL('./migrations/meta/_journal.json', import.meta.url), 'utf8');
    const migrations = (JSON.parse(journal) as { entries: unknown[] }).entries.length;
    expect(await first!.get(sql`SELECT count(*) AS n FROM drizzle.__drizzle_migrations`)).toEqual({
      n: migrations,
    });
    await Promise.all(nodes.map((node) => node.close()));
  });

  it('stores bodies and feed rows compressed with lz4 (migration 0005), and reads them back whole', async () => {
    const methods = await db.all<{ column: string; method: string }>(
      sql`SELECT attrelid::regclass::text || '.' || attname AS column, attcompression AS method
        FROM pg_attribute WHERE attrelid IN ('articles'::regclass, 'change_log'::regclass)
        AND attname IN ('content', 'content_text', 'row') ORDER BY 1`,
    );
    expect(methods).toEqual([
      { column: 'articles.content', method: 'l' },
      { column: 'articles.content_text', method: 'l' },
      { column: 'change_log.row', method: 'l' },
    ]);
    // A body large enough to be compressed out of line comes back byte for byte.
    const body = `<p>${'Lighthouse keepers kept the light. '.repeat(2_000)}</p>`;
    const { articles } = db.tables;
    await db.transaction((tx) =>
      tx.orm.insert(articles).values({
        id: 'long',
        userId: 'reader',
        url: 'https://example.com/long',
        normalizedUrl: 'https://example.com/long',
        title: 'Long',
        articleType: 'web',
        content: body,
        createdAt: AT,
        updatedAt: AT,
      }),
    );
    const stored = await db.get<{ content: string; method: string }>(
      sql`SELECT content, pg_column_compression(content) AS method FROM articles WHERE id = 'long'`,
    );
    expect(stored).toEqual({ content: body, method: 'lz4' });
  });
});
