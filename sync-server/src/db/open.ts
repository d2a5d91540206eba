// Picks the engine from the configuration: PostgreSQL when DATABASE_URL is set, else SQLite in the data
// folder. A PostgreSQL the server can't reach, log into or migrate stops the start with its reason; the
// server never falls back to SQLite, which would serve an empty library beside the real one.
import type { Config } from '../config';
import { openSqlite } from './connection';
import { recordTouched } from '../services/feed-rows';
import { openPostgres, type PostgresOptions } from './postgres/connection';

/** A database the server can't start on; its message is for the operator (no stack trace, no password). */
export class DatabaseStartError extends Error {}

/** How long reaching PostgreSQL at start may take before the start fails. */
const START_CONNECT_TIMEOUT_MS = 5_000;

/**
 * The server's database: both engines record the change feed in each transaction (services/feed-rows.ts)
 * and call `afterCommit` with the users whose feed a commit moved.
 */
export async function openDatabaseFromConfig(
  config: Pick<Config, 'databaseFile' | 'databaseUrl'>,
  options: Pick<PostgresOptions, 'afterCommit'> = {},
) {
  if (config.databaseUrl === null) return openSqlite(config.databaseFile, options);
  try {
    return await openPostgres(config.databaseUrl, {
      ...options,
      recordFeed: recordTouched,
      connectTimeoutMs: START_CONNECT_TIMEOUT_MS,
    });
  } catch (error) {
    throw new DatabaseStartError(whyUnusable(config.databaseUrl, error));
  }
}

/** SQLSTATE classes of a refused login: invalid authorization (28…), and an unknown database (3D000). */
const LOGIN_REFUSED = /^28/;
const NO_DATABASE = '3D000';

/** The operator's explanation of why PostgreSQL can't be used, naming the server but never the password. */
function whyUnusable(url: string, error: unknown): string {
  const address = new URL(url);
  // A Unix socket's folder is the `host` parameter (postgres://user@localhost/db?host=/var/run/postgresql).
  const socketFolder = address.searchParams.get('host');
  const server = `${socketFolder || address.hostname || 'localhost'}:${address.port || '5432'}`;
  const user = decodeURIComponent(address.username) || '(the current system user)';
  const database = decodeURIComponent(address.pathname.replace(/^\//, '')) || user;
  const { code, message } = error as { code?: unknown; message?: unknown };
  // Node answers an address it tried over IPv4 and IPv6 with an AggregateError whose message is empty.
  const reason =
    typeof message === 'string' && message !== '' ? message : typeof code === 'string' ? code : String(error);
  const where = `PostgreSQL at ${server} (DATABASE_URL)`;
  if (typeof code === 'string' && LOGIN_REFUSED.test(code))
    return `${where} refused the login of user "${user}": ${reason}. Check the user and password in DATABASE_URL.`;
  if (code === NO_DATABASE)
    return `${where} has no database "${database}": ${reason}. Create it (createdb) or fix DATABASE_URL.`;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code))
    return `${where} could not be reached: ${reason}. Check that PostgreSQL runs there and DATABASE_URL names it.`;
  if (/timeout|timed out/i.test(reason))
    return `${where} did not answer within ${START_CONNECT_TIMEOUT_MS / 1000} seconds. Check that PostgreSQL runs there and DATABASE_URL names it.`;
  return `${where} could not be used at start: ${reason}.`;
}
