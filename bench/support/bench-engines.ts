// The database engines the server's benchmarks run on: SQLite in the data folder (the embedded default)
// and, when PostgreSQL is installed, a throwaway PostgreSQL cluster (testing/postgres-cluster.ts), so one
// `npm run bench` gives the server's figures on both. BENCH_ENGINES=sqlite or =postgres picks one.
import { sql } from 'drizzle-orm';
import type { Db } from '../../sync-server/src/db/database';
import { openPostgres } from '../../sync-server/src/db/postgres/connection';
import { recordTouched } from '../../sync-server/src/services/feed-rows';
import {
  createTestDatabase,
  findPostgresBinaries,
  stopTestCluster,
  useTestClusterSettings,
} from '../../sync-server/src/testing/postgres-cluster';
import { seedDatabase } from './seed-library';

export type EngineName = 'sqlite' | 'postgres';

/**
 * The benchmarks' PostgreSQL is given memory as a node's database would be (docs/deploy.md): with the
 * default 128 MB of shared buffers the 50,000-article library's search index (about 500 MB) did not stay
 * in them, and searches read pages back from the system's cache: timed in the server's process, p95 14 to
 * 22 ms, against about 8 ms once the pages stay in 1 GB (docs/performance.md, 1 December 2026). 1 GB is a
 * small part of this machine's 24 GB.
 */
export const BENCH_POSTGRES_SETTINGS = ['-c shared_buffers=1GB'];

/** Starts the benchmark's PostgreSQL, on first use, with BENCH_POSTGRES_SETTINGS. */
export function useBenchPostgres(): void {
  useTestClusterSettings(BENCH_POSTGRES_SETTINGS);
}

export interface BenchEngine {
  name: EngineName;
  /** As figures name it. */
  label: 'SQLite' | 'PostgreSQL';
  /** Opens the database, lets `work` write into it through the server's own services, and closes it. */
  seed<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /** The database's size on disk now. */
  sizeMb(db: Db): Promise<number>;
  /** What a server process needs in its environment to run on this database (beside DATA_DIR). */
  serverEnv: Record<string, string>;
  close(): Promise<void>;
}

function postgresInstalled(): boolean {
  try {
    findPostgresBinaries();
    return true;
  } catch {
    return false;
  }
}

/** BENCH_ENGINES (comma-separated) or both engines, PostgreSQL only when it is installed (with a note if not). */
export function benchEngineNames(): EngineName[] {
  const asked = process.env.BENCH_ENGINES?.split(',').map((name) => name.trim());
  if (asked && asked.length > 0 && asked[0] !== '')
    return asked.filter((name): name is EngineName => name === 'sqlite' || name === 'postgres');
  if (postgresInstalled()) return ['sqlite', 'postgres'];
  console.log(
    'PostgreSQL is not installed (apt-get install postgresql): the server figures run on SQLite only.',
  );
  return ['sqlite'];
}

async function sizeMb(db: Db): Promise<number> {
  const row =
    db.dialect === 'sqlite'
      ? await db.get<{ bytes: number }>(
          sql`SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()`,
        )
      : await db.get<{ bytes: string }>(sql`SELECT pg_database_size(current_database()) AS bytes`);
  return Number(row?.bytes ?? 0) / 1024 / 1024;
}

/**
 * Runs `work` (the seeding) with the GIN search indexes dropped, then builds them again as their
 * migrations made them (`pg_get_indexdef`, their settings included). Each save writes its entries into
 * these indexes at once (fastupdate is off, migration 0012), which at tens of thousands of articles made a
 * save through the services cost 40 to 150 ms of the database's time, most of it in the index: seeding
 * 50,000 articles took over an hour. Built once after the load, the indexes are as a reader's are after
 * vacuum; the server's measured searches and saves use them as usual.
 */
async function withoutSearchIndexes<T>(db: Db, work: () => Promise<T>): Promise<T> {
  const indexes = await db.all<{ name: string; definition: string }>(
    sql`SELECT indexname AS name, indexdef AS definition FROM pg_indexes
         WHERE schemaname = current_schema() AND indexdef LIKE '% USING gin %'`,
  );
  for (const { name } of indexes) await db.run(sql`DROP INDEX ${sql.identifier(name)}`);
  try {
    return await work();
  } finally {
    // The seeding's dead row versions go first: building an index over the words of a body reads each row
    // version's body, and at 50,000 articles one dead version's body was already gone ("missing chunk
    // number 0 for toast value", 4 December).
    await db.run(sql`VACUUM`);
    for (const { definition } of indexes) await db.run(sql.raw(definition));
  }
}

/** The engine's database for a server whose data folder is `dataDir` (files live there on both). */
export async function openBenchEngine(name: EngineName, dataDir: string): Promise<BenchEngine> {
  if (name === 'sqlite')
    return {
      name,
      label: 'SQLite',
      seed: (work) => seedDatabase(dataDir, work),
      sizeMb,
      serverEnv: {},
      close: async () => {},
    };
  useBenchPostgres();
  const url = await createTestDatabase();
  return {
    name,
    label: 'PostgreSQL',
    async seed(work) {
      // Opened as the server opens it: every write records the change feed.
      const db = await openPostgres(url, { recordFeed: recordTouched });
      try {
        const answer = await withoutSearchIndexes(db, () => work(db));
        // What autovacuum does after a bulk load: statistics for the planner, and the GIN index's pending
        // list merged into the index (a search reads that list whole).
        await db.run(sql`VACUUM ANALYZE`);
        return answer;
      } finally {
        await db.close();
      }
    },
    sizeMb,
    serverEnv: { DATABASE_URL: url, JWT_SECRET: 'benchmark secret of at least thirty-two characters' },
    close: () => stopTestCluster(),
  };
}
