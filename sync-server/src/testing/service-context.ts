// The server's own service context on a fresh database of the run's engine (testing/test-database.ts: an
// in-memory SQLite or a PostgreSQL database, the real migrations) and a temporary DATA_DIR, for unit tests
// of services/*: the same limits and codes the server makes, without HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@lectern/shared-schema';
import { afterEach, beforeEach } from 'vitest';
import type { NewArticle } from '../services/articles';
import { insertArticle } from '../services/articles';
import { loadConfig } from '../config';
import { openTestDatabaseWithEnv } from './test-database';
import { createServiceContext, type ServiceContext } from '../services/context';
import { sql } from 'drizzle-orm';

export interface TestContext {
  ctx: ServiceContext;
  dataDir: string;
  /** A user row (no password: these tests never sign it in), answering its id. */
  addUser(id: string): Promise<string>;
  /** A web article of `userId` stored as a save stores it, answering its id. */
  addArticle(userId: string, fields?: Partial<NewArticle>): Promise<string>;
  close(): Promise<void>;
}

export async function openTestContext(env: Record<string, string> = {}): Promise<TestContext> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-unit-'));
  const database = await openTestDatabaseWithEnv();
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      JWT_SECRET: 'test-secret-'.padEnd(48, 'x'),
      LOG_LEVEL: 'silent',
      ...database.env,
      ...env,
    },
    { appDir: null },
  );
  const ctx = createServiceContext(database.db, config);
  let articles = 0;
  return {
    ctx,
    dataDir,
    async addUser(id) {
      await ctx.db.run(
        sql`INSERT INTO users (id, email, created_at) VALUES (${id}, ${`${id}@example.com`}, ${new Date().toISOString()})`,
      );
      return id;
    },
    async addArticle(userId, fields = {}) {
      articles += 1;
      const id = fields.id ?? newId();
      await insertArticle(
        ctx.db,
        userId,
        {
          id,
          url: `https://example.com/${userId}/${articles}`,
          article_type: 'web',
          screenshot_url: null,
          title: `Article ${articles}`,
          description: null,
          author: null,
          image_url: null,
          published_date: null,
          site_name: null,
          language: null,
          excerpt: null,
          content: '<p>Text</p>',
          content_text: 'Text',
          reading_time: 1,
          ...fields,
        },
        [],
      );
      return id;
    },
    async close() {
      await ctx.jobs.stop();
      await ctx.extraction.ocr.close();
      await ctx.files.close();
      await ctx.db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new context before each test of the file, with a user row for each of `users`, closed after the test.
 * The answer stands for whichever context the running test has, so the file can hold it in a `const`.
 */
export function contextPerTest(users: readonly string[], env: Record<string, string> = {}): TestContext {
  let current: TestContext | undefined;
  beforeEach(async () => {
    current = await openTestContext(env);
    for (const id of users) await current.addUser(id);
  });
  afterEach(() => current?.close());
  const now = (): TestContext => {
    if (!current) throw new Error('The test context is open only while a test runs.');
    return current;
  };
  return {
    get ctx() {
      return now().ctx;
    },
    get dataDir() {
      return now().dataDir;
    },
    addUser: async (id) => await now().addUser(id),
    addArticle: async (userId, fields) => await now().addArticle(userId, fields),
    close: () => now().close(),
  };
}
