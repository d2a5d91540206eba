// For the tests that run on PostgreSQL: a throwaway cluster each test process starts for itself with
// Debian's initdb and pg_ctl (`.ci/run` installs the package), in a temporary folder, on a free port, tuned
// for speed over durability; nothing needs a database set up by hand. Each test takes a fresh database
// copied from a template the migrations ran on once, so every test starts clean in milliseconds.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { freeLocalPort } from './listen-locally';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';
import { openPostgres } from '../db/postgres/connection';

/** The superuser initdb makes; trust authentication, so the URL needs no password. */
const SUPERUSER = 'lectern';
/** The migrated database every test database is copied from. */
const TEMPLATE = 'lectern_template';

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
}

/**
 * initdb and pg_ctl: from the newest /usr/lib/postgresql/<version>/bin (Debian keeps them off PATH), else
 * from PATH. Throws a clear error when PostgreSQL isn't installed.
 */
export function findPostgresBinaries(
  libDir = '/usr/lib/postgresql',
  path = process.env.PATH ?? '',
): PostgresBinaries {
  const versions = existsSync(libDir)
    ? readdirSync(libDir)
        .filter((name) => /^\d+(\.\d+)?$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const folders = [...versions.map((version) => join(libDir, version, 'bin')), ...path.split(delimiter)];
  for (const folder of folders) {
    if (!folder) continue;
    const initdb = join(folder, 'initdb');
    const pgCtl = join(folder, 'pg_ctl');
    if (existsSync(initdb) && existsSync(pgCtl)) return { initdb, pgCtl };
  }
  throw new Error(
    `PostgreSQL is not installed: no initdb and pg_ctl in ${libDir}/<version>/bin or on PATH. ` +
      "Install Debian's postgresql package (apt-get install postgresql; .ci/run does it).",
  );
}

export interface PostgresCluster {
  /** The cluster's `postgres` database, as its superuser. */
  readonly url: string;
  /** The same server, another database. */
  urlOf(database: string): string;
  /** Stops the server and deletes its folder. */
  close(): Promise<void>;
}

/**
 * initdb refuses to run as root: as root, the cluster belongs to the `postgres` user (the package makes
 * it) and its commands run as that user; as anyone else, as themselves.
 */
function clusterOwner(): { run: (command: string, args: string[]) => string; chown: (path: string) => void } {
  const run = (command: string, args: string[]) =>
    execFileSync(...ownerCommand(command, args), { encoding: 'utf8' });
  if (process.getuid?.() !== 0) return { run, chown: () => {} };
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { run, chown: (path) => chownSync(path, uid, gid) };
}

/**
 * Starts a new cluster in a temporary folder, on a free loopback port; close() stops and removes it.
 * `settings`: more of the server's settings, as `-c name=value` (the benchmarks size its memory).
 */
export async function startPostgresCluster(settings: readonly string[] = []): Promise<PostgresCluster> {
  const { initdb, pgCtl } = findPostgresBinaries();
  const owner = clusterOwner();
  const folder = mkdtempSync(join(tmpdir(), 'lectern-pg-'));
  const data = join(folder, 'data');
  const log = join(folder, 'server.log');
  const remove = () => rmSync(folder, { recursive: true, force: true });
  try {
    owner.chown(folder);
    // C.UTF-8: Unicode letters are letters to the search index's tokenizer (db/postgres/migrations).
    owner.run(initdb, [
      '-D',
      data,
      '-U',
      SUPERUSER,
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ]);
  } catch (error) {
    remove();
    throw error;
  }
  // Durability is worth nothing to a cluster deleted after the tests; the socket stays in our folder.
  const serverSettings = [
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${folder}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
    ...settings,
  ];
  for (let attempt = 1; ; attempt++) {
    const port = await freeLocalPort();
    try {
      owner.run(pgCtl, [
        'start',
        '-D',
        data,
        '-l',
        log,
        '-w',
        '-t',
        '60',
        '-o',
        `-p ${port} ${serverSettings.join(' ')}`,
      ]);
    } catch (error) {
      // Another process may have taken the port between freeLocalPort and the start: try another one.
      if (attempt < 3) continue;
      const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '';
      remove();
      throw new Error(`The test PostgreSQL did not start: ${String(error)}\n${serverLog}`, { cause: error });
    }
    // Reached through its Unix socket (its file is named by the port), as a server on the same machine as
    // its database would be: loopback TCP costs the client's process about a third more CPU a query
    // (docs/deploy.md).
    const urlOf = (database: string) =>
      `postgres://${SUPERUSER}@localhost:${port}/${database}?host=${encodeURIComponent(folder)}`;
    const watchdog = watchOver(process.pid, pgCtl, data, folder);
    let closed = false;
    const stop = () => {
      if (closed) return;
      closed = true;
      watchdog.kill();
      spawnSync(...ownerCommand(pgCtl, ['stop', '-D', data, '-m', 'immediate', '-w']));
      remove();
    };
    process.once('exit', stop);
    return {
      url: urlOf('postgres'),
      urlOf,
      close: async () => {
        process.removeListener('exit', stop);
        stop();
      },
    };
  }
}

/**
 * A test process that ends without close() still leaves no server behind. Its 'exit' handler covers a
 * normal end, but test runners end their workers with a signal, which runs no handler: a detached shell
 * waits for this process to be gone, then stops the server and deletes its folder.
 */
function watchOver(pid: number, pgCtl: string, data: string, folder: string): ChildProcess {
  const [command, args] = ownerCommand(pgCtl, ['stop', '-D', data, '-m', 'immediate', '-w']);
  // The folder is an argument, not part of the script: a quote in TMPDIR can't end the script's string.
  const script = `folder=$1; shift; while kill -0 ${pid} 2>/dev/null; do sleep 1; done; "$@" >/dev/null 2>&1; rm -rf "$folder"`;
  const watchdog = spawn('/bin/sh', ['-c', script, 'watchdog', folder, command, ...args], {
    detached: true,
    stdio: 'ignore',
  });
  watchdog.unref();
  return watchdog;
}

/** The command line that runs `command` as the cluster's owner. */
function ownerCommand(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

/**
 * Set by the `sync-server-postgres` project's global setup (postgres-global-setup.ts): the admin URL of the
 * one cluster the whole run shares, its template already migrated. Without it each test process starts a
 * cluster of its own on first use.
 */
export const RUN_CLUSTER_ENV = 'LECTERN_TEST_POSTGRES_URL';

let shared: Promise<{ cluster: PostgresCluster }> | undefined;
/** The settings this process's own cluster starts with (useTestClusterSettings). */
let sharedSettings: readonly string[] = [];

/**
 * Settings for the cluster this process starts on first use (createTestDatabase), as `-c name=value`:
 * the benchmarks give PostgreSQL the memory a node's database would have. Called before that first use.
 * A test run's shared cluster (RUN_CLUSTER_ENV) is started by its global setup, with its own settings.
 */
export function useTestClusterSettings(settings: readonly string[]): void {
  if (shared) throw new Error('The test cluster has started already: its settings are set before it starts.');
  sharedSettings = settings;
}

/** A cluster's `postgres` URL with another database. */
function withDatabase(url: string, database: string): string {
  const address = new URL(url);
  address.pathname = `/${database}`;
  return address.href;
}

/** Creates the migrated template every test database is copied from. */
async function createTemplate(cluster: PostgresCluster): Promise<void> {
  await withAdmin(cluster.url, (client) => client.query(`CREATE DATABASE ${TEMPLATE}`));
  const db = await openPostgres(cluster.urlOf(TEMPLATE));
  await db.close();
}

/** A new cluster with the migrated template every test database is copied from (stopped if that fails). */
export async function startMigratedCluster(settings: readonly string[] = []): Promise<PostgresCluster> {
  const cluster = await startPostgresCluster(settings);
  try {
    await createTemplate(cluster);
  } catch (error) {
    await cluster.close();
    throw error;
  }
  return cluster;
}

/** This test process's cluster, with the migrated template: the run's, or one started on first use. */
async function sharedCluster(): Promise<{ cluster: PostgresCluster }> {
  shared ??= (async () => {
    const runUrl = process.env[RUN_CLUSTER_ENV];
    if (runUrl) {
      // The run's cluster: the global setup stops it, never a test process.
      return {
        cluster: { url: runUrl, urlOf: (database) => withDatabase(runUrl, database), close: async () => {} },
      };
    }
    return { cluster: await startMigratedCluster(sharedSettings) };
  })();
  return shared;
}

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, migrated, empty database on this test process's cluster (started on first use); answers its
 * URL. Copying the template costs milliseconds where running the migrations costs a second. The name is
 * random: test processes of one run share the run's cluster.
 */
export async function createTestDatabase(): Promise<string> {
  const { cluster } = await sharedCluster();
  const name = `lectern_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(cluster.url, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`));
  return cluster.urlOf(name);
}

/** Deletes a database createTestDatabase made (its connections are ended first), freeing its disk. */
export async function dropTestDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^lectern_test_[0-9a-f]+$/.test(name)) throw new Error(`Not a test database: ${name}`);
  const { cluster } = await sharedCluster();
  await withAdmin(cluster.url, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** Stops this test process's cluster, if one was started (for afterAll). */
export async function stopTestCluster(): Promise<void> {
  const started = shared;
  shared = undefined;
  const cluster = await started?.then((state) => state.cluster).catch(() => undefined); // failed: closed then
  await cluster?.close();
}
