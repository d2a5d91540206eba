import { defineConfig } from 'vitest/config';

/** Server tests about PostgreSQL itself (or that need it): they run in the PostgreSQL project only. */
const POSTGRES_ONLY = [
  // PostgreSQL's own connection, feed order, search (and its parity with SQLite's) and migrations.
  'sync-server/src/db/postgres/*.test.ts',
  // The throwaway cluster the PostgreSQL tests run on.
  'sync-server/src/testing/postgres-cluster.test.ts',
  // LISTEN/NOTIFY between nodes.
  'sync-server/src/live/postgres-feed-signals.test.ts',
  // pg-boss, the job runner on PostgreSQL.
  'sync-server/src/jobs/pg-boss-runner.test.ts',
  // DATABASE_URL at start: refused addresses, and a start that serves from PostgreSQL.
  'sync-server/test/database-start-errors.test.ts',
  // Two server processes on one PostgreSQL: the feed and live updates across nodes (LISTEN/NOTIFY), and a
  // node killed in the middle of a save's extraction, which another node finishes (pg-boss's takeover).
  'sync-server/test/two-nodes-live.test.ts',
  'sync-server/test/node-killed-mid-save.test.ts',
  // Nodes built from the configuration on a throwaway PostgreSQL database of their own (the runner and the
  // signal each engine picks, pg-boss between nodes), and ROLE, which needs DATABASE_URL: the same run
  // whichever engine the project is on, so once.
  'sync-server/src/nodes/node-wiring.test.ts',
  'sync-server/test/node-roles.test.ts',
];

/** Server tests about SQLite itself: left out of the PostgreSQL project, each with its reason. */
const SQLITE_ONLY = [
  // The SQLite file's pragmas (WAL, synchronous=FULL), its second connection and its migrations.
  'sync-server/src/db/connection.test.ts',
  // The FTS5 index's rebuild when SQLite's search index changed shape, and its triggers' writes.
  'sync-server/src/db/search-index-upgrade.test.ts',
  'sync-server/src/db/search-index-writes.test.ts',
  // FTS5 internals: the highlight index's owner column (PostgreSQL's search has db/postgres/search-*.test.ts).
  'sync-server/test/highlight-search-owner.test.ts',
  // The normalized_url backfill of SQLite libraries older than the column; no PostgreSQL library lacks it.
  'sync-server/test/save-again-backfill.test.ts',
  // The in-process queue taking up a dead process's jobs at restart (pg-boss's takeover: node-wiring.test.ts).
  'sync-server/src/services/save-jobs-restart.test.ts',
];

// Files that never open a database (page extraction, passwords, file stores, the in-process signal, the
// two schemas compared as code): the same on both engines, so they run once, in the SQLite project.
// Over HTTP, but about what sits above the database (page extraction and its hostile pages, S3, password
// hashing, memory bounds): the same code on both engines, so they run once too.
const ABOVE_THE_DATABASE = [
  'sync-server/test/save-with-html.test.ts',
  'sync-server/test/meta-refresh.test.ts',
  'sync-server/test/article-titles.test.ts',
  'sync-server/test/hostile-pages.test.ts',
  'sync-server/test/s3-storage.test.ts',
  'sync-server/test/image-archive-s3.test.ts',
  'sync-server/test/screenshots-s3.test.ts',
  'sync-server/test/password-hash-queue.test.ts',
  'sync-server/test/memory-bounds.test.ts',
];

const NO_DATABASE = [
  'sync-server/src/extraction/**/*.test.ts',
  'sync-server/src/services/passwords.test.ts',
  'sync-server/src/storage/file-stores.test.ts',
  'sync-server/src/live/feed-signals.test.ts',
  'sync-server/src/db/schemas-in-step.test.ts',
];

/**
 * The server's and the app's test files run one after another in a worker that keeps the modules it loaded
 * (isolate: false): loading Fastify, drizzle, React and the server's graph again for each of 170 files took
 * a third of those projects' time. What a file must not leak is set per file: the setup file runs before
 * each one, every server, database, store and fake IndexedDB is started by the file that uses it, globals a
 * file stubs are unstubbed after it, and a file that must run twice (on the data folder and on S3) calls a
 * suite function rather than importing another test file.
 */
const ISOLATE_TEST_FILES = false;

/** Test servers in the test's own process hash passwords at a small cost (the file says why). */
const QUICK_PASSWORD_HASHING = 'sync-server/src/testing/quick-password-hashing.ts';
/**
 * Dexie reads the global indexedDB once, when it is first loaded, and its liveQuery runs only where one
 * existed then. Test files share their modules (isolate: false): a file importing Dexie before installing
 * fake-indexeddb left every live query of the files after it in that worker without an answer. Installed
 * before any file's imports instead, once for all.
 */
const FAKE_INDEXEDDB = 'app/src/data/testing/install-fake-indexeddb.ts';

// One runner for every workspace; each project keeps its own environment.
export default defineConfig({
  test: {
    // Two at a time even on two cores (vitest's default there is one): most tests wait on sockets, timers
    // and child processes rather than the CPU, and CI has 20 minutes for the whole run.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'shared-schema',
          include: ['shared-schema/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'scripts',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'sync-server',
          include: ['sync-server/src/**/*.test.ts', 'sync-server/test/**/*.test.ts'],
          exclude: POSTGRES_ONLY,
          environment: 'node',
          isolate: ISOLATE_TEST_FILES,
          setupFiles: [QUICK_PASSWORD_HASHING],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The same server suite on PostgreSQL: one throwaway cluster for the run (its global setup), a fresh
        // database per test copied from a migrated template (sync-server/src/testing/test-database.ts).
        test: {
          name: 'sync-server-postgres',
          include: ['sync-server/src/**/*.test.ts', 'sync-server/test/**/*.test.ts'],
          exclude: [...SQLITE_ONLY, ...NO_DATABASE, ...ABOVE_THE_DATABASE],
          environment: 'node',
          isolate: ISOLATE_TEST_FILES,
          setupFiles: [QUICK_PASSWORD_HASHING],
          env: { LECTERN_TEST_ENGINE: 'postgres' },
          globalSetup: ['sync-server/src/testing/postgres-global-setup.ts'],
          // The cluster shares the two cores with the servers under test: the attack tests (hundreds of
          // concurrent sign-ins) take longer here.
          testTimeout: 90_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'app',
          include: ['app/src/**/*.test.{ts,tsx}'],
          environment: 'node',
          isolate: ISOLATE_TEST_FILES,
          setupFiles: [FAKE_INDEXEDDB, QUICK_PASSWORD_HASHING],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Chromium against the built app (`npm run test:e2e` builds it first); one browser at a time.
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          setupFiles: [QUICK_PASSWORD_HASHING],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
