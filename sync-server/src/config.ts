// Configuration from the environment (DESIGN.md section 6); every setting is optional.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { SYNC_EVENTS_TICKET_SECONDS } from '@lectern/shared-schema';
import { restrictMode } from './private-files';

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
}

/** S3-compatible object storage for files (S3_BUCKET and the S3_* settings beside it). */
export interface S3Config {
  bucket: string;
  /** S3_ENDPOINT: the server's address (MinIO, R2, …); null for AWS itself, found from the region. */
  endpoint: string | null;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** S3_FORCE_PATH_STYLE: `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO and most others). */
  forcePathStyle: boolean;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  /** DATABASE_URL: PostgreSQL (postgres:// or postgresql://) instead of the SQLite file; null for SQLite. */
  databaseUrl: string | null;
  jwtSecret: string;
  publicUrl: string;
  fetchAllowedOrigins: string[];
  google: GoogleConfig | null;
  /** Failed sign-ins allowed per email, and per IP, in each window. */
  loginFailuresPerEmail: number;
  loginFailuresPerIp: number;
  loginWindowMs: number;
  registrationsPerIp: number;
  registrationWindowMs: number;
  /**
   * Which proxies in front of the server to believe about the client's address (X-Forwarded-For):
   * none (false), the last n hops, or the proxies' own addresses/CIDR ranges.
   */
  trustProxy: false | number | string[];
  /** Saves by URL (and metadata fetches) in progress at once: per user, and on the whole server. */
  savesPerUser: number;
  savesInFlight: number;
  /** Screenshot uploads in progress at once (each holds up to 15 MB until OCR is done). */
  uploadsPerUser: number;
  uploadsInFlight: number;
  /** OCR of one screenshot is stopped after this long. */
  ocrTimeoutMs: number;
  /** A page waiting this long for an extraction worker (other users' pages) is answered 429 "server busy". */
  extractionQueueWaitMs: number;
  /** A request whose body hasn't fully arrived after this long is cut off (a trickled upload holds a slot). */
  requestTimeoutMs: number;
  /** Background jobs (an import's pages) running at once, in all and for one user; the first retry's wait. */
  jobConcurrency: number;
  jobConcurrencyPerUser: number;
  jobRetryBaseMs: number;
  /**
   * On PostgreSQL, a job running this long is presumed lost with its node and handed to another
   * (JOB_EXPIRE_SECONDS): longer than the longest job, short enough that a dead node's work resumes soon.
   */
  jobExpireSeconds: number;
  /** ROLE: what this node does: answer requests (web), run background jobs (worker), or both. */
  role: NodeRole;
  /** One image of a saved article not fetched within this long is given up (IMAGE_FETCH_TIMEOUT_MS). */
  imageFetchTimeoutMs: number;
  /** How long a write's Idempotency-Key is remembered (IDEMPOTENCY_TTL_SECONDS, 7 days by default). */
  idempotencyTtlMs: number;
  /** Live update streams (GET /api/sync/events): per user and per node, heartbeat, ticket lifetime. */
  syncEventsPerUser: number;
  syncEventsMax: number;
  syncEventsHeartbeatMs: number;
  syncEventsTicketSeconds: number;
  /** Where the built PWA is served from; absent until `npm run build` has run. */
  appDir: string | null;
  logger: boolean;
  /** Where screenshots and archived images are kept: S3 when S3_BUCKET is set, else DATA_DIR (null). */
  s3: S3Config | null;
}

type Env = Record<string, string | undefined>;

/** A node's part: `web` answers requests and queues jobs, `worker` runs them, `both` does both. */
export type NodeRole = 'web' | 'worker' | 'both';

const NODE_ROLES: readonly NodeRole[] = ['web', 'worker', 'both'];

/** ROLE: unset for both; anything but the three names stops the start rather than guess. */
function roleSetting(raw: string | undefined, databaseUrl: string | null): NodeRole {
  const value = (raw ?? '').trim();
  if (value === '') return 'both';
  const role = NODE_ROLES.find((name) => name === value);
  if (!role)
    throw new Error(
      `ROLE must be web (answer requests only), worker (run background jobs only) or both (the default), got "${value}"`,
    );
  // On SQLite one process owns the database: a web node alone would leave every job unrun, and a worker
  // alone would answer no one.
  if (role !== 'both' && databaseUrl === null)
    throw new Error(
      `ROLE=${role} needs DATABASE_URL: on SQLite one process answers requests and runs the jobs (ROLE=both).`,
    );
  return role;
}

function intSetting(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

/** pg-boss refuses a job expiry of 24 hours or more (with every job sent, so refuse it at start instead). */
const JOB_EXPIRE_LIMIT_SECONDS = 24 * 60 * 60;

function jobExpireSetting(env: Env): number {
  const seconds = Math.max(1, intSetting(env, 'JOB_EXPIRE_SECONDS', 15 * 60));
  if (seconds >= JOB_EXPIRE_LIMIT_SECONDS)
    throw new Error(
      `JOB_EXPIRE_SECONDS must be less than ${JOB_EXPIRE_LIMIT_SECONDS} (24 hours, the most pg-boss allows), got "${env.JOB_EXPIRE_SECONDS}"`,
    );
  return seconds;
}

/** HS256 keys shorter than the hash (32 bytes) can be guessed offline from any one token. */
export const JWT_SECRET_MIN_BYTES = 32;

function checkedSecret(secret: string, source: string): string {
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < JWT_SECRET_MIN_BYTES)
    throw new Error(
      `${source} must be at least ${JWT_SECRET_MIN_BYTES} bytes long (it has ${bytes}). ` +
        'Generate one with `openssl rand -base64 48`, or leave JWT_SECRET unset to have one generated.',
    );
  return secret;
}

/**
 * The JWT secret comes from JWT_SECRET, or is generated once and kept in the data folder (mode 0600). On
 * PostgreSQL several nodes check each other's tokens, so they must share one secret: JWT_SECRET is required.
 */
function loadJwtSecret(env: Env, dataDir: string, onPostgres: boolean): string {
  if (env.JWT_SECRET) return checkedSecret(env.JWT_SECRET, 'JWT_SECRET');
  if (onPostgres)
    throw new Error(
      'JWT_SECRET is required when DATABASE_URL is set: every server node must sign and check tokens with the ' +
        'same secret. Generate one with `openssl rand -base64 48` and give it to every node.',
    );
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return checkedSecret(readFileSync(file, 'utf8').trim(), file);
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * DATABASE_URL: unset for SQLite in the data folder; otherwise a PostgreSQL address. Anything else stops the
 * start (never a silent fall-back to SQLite). The error names the scheme only: the address may hold a password.
 */
function databaseUrlSetting(raw: string | undefined): string | null {
  const value = (raw ?? '').trim();
  if (value === '') return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme !== 'postgres' && scheme !== 'postgresql')
    throw new Error(
      `DATABASE_URL must be a PostgreSQL address (postgres://user:password@host:5432/database or postgresql://…); ` +
        (scheme ? `it starts with "${scheme}:".` : 'it has no scheme.'),
    );
  try {
    const address = new URL(value);
    // pg decodes these: a stray % (a password's, unescaped) would otherwise stop the start with "URI malformed".
    for (const part of [address.username, address.password, address.pathname]) decodeURIComponent(part);
  } catch {
    throw new Error('DATABASE_URL is not a valid address (postgres://user:password@host:5432/database).');
  }
  return value;
}

/** Names proxy-addr accepts for whole ranges, besides addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const max = version === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

/**
 * TRUST_PROXY: unset or "false" trusts no proxy; a whole number n trusts the last n hops (1 for one
 * reverse proxy); otherwise a comma-separated list of the proxies' addresses or CIDR ranges. "true"
 * (every hop) is refused: with it, any client picks its own address by sending X-Forwarded-For.
 */
function trustProxySetting(raw: string | undefined): false | number | string[] {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true')
    throw new Error(
      'TRUST_PROXY=true would believe every X-Forwarded-For hop, so any client could pick its own address. ' +
        'Set the number of proxies in front of Lectern (TRUST_PROXY=1 for one reverse proxy) or their ' +
        'addresses (TRUST_PROXY=10.0.0.2 or TRUST_PROXY=10.0.0.0/8,loopback).',
    );
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wrong = entries.filter((entry) => !isProxyAddress(entry));
  if (wrong.length > 0)
    throw new Error(
      `TRUST_PROXY must be a number of hops or a comma-separated list of addresses or CIDR ranges; ` +
        `"${wrong.join('", "')}" is neither`,
    );
  return entries;
}

const S3_SETTINGS = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
] as const;

/**
 * S3_BUCKET turns object storage on; the region and both keys are then required. An S3 setting without a
 * bucket is refused too: the files would silently stay in DATA_DIR, on one node only.
 */
function s3Setting(env: Env): S3Config | null {
  const bucket = (env.S3_BUCKET ?? '').trim();
  if (!bucket) {
    const stray = S3_SETTINGS.filter((name) => env[name]);
    if (stray.length > 0)
      throw new Error(
        `${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set but S3_BUCKET is not. ` +
          'Set S3_BUCKET to keep screenshots and archived images in S3-compatible storage, ' +
          'or unset the S3_* settings to keep them in DATA_DIR.',
      );
    return null;
  }
  const missing = (['S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter(
    (name) => !env[name],
  );
  if (missing.length > 0)
    throw new Error(
      'S3_BUCKET is set, so S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set too; ' +
        `missing: ${missing.join(', ')}`,
    );
  const endpoint = (env.S3_ENDPOINT ?? '').trim();
  if (endpoint && !/^https?:\/\/[^/\s]+/i.test(endpoint))
    throw new Error(`S3_ENDPOINT must be an http:// or https:// address, got "${endpoint}"`);
  const pathStyle = (env.S3_FORCE_PATH_STYLE ?? '').trim();
  if (pathStyle !== '' && pathStyle !== 'true' && pathStyle !== 'false')
    throw new Error(`S3_FORCE_PATH_STYLE must be true or false, got "${pathStyle}"`);
  return {
    bucket,
    endpoint: endpoint || null,
    region: env.S3_REGION ?? '',
    accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
    forcePathStyle: pathStyle === 'true',
  };
}

export function loadConfig(env: Env = process.env, defaults: { appDir?: string | null } = {}): Config {
  const port = intSetting(env, 'PORT', 3000);
  const databaseUrl = databaseUrlSetting(env.DATABASE_URL);
  const dataDir = resolve(env.DATA_DIR || './data');
  // Only the server's own user may read the database, uploads and the generated secret.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  restrictMode(dataDir, 0o700);
  const google =
    env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
      ? {
          clientId: env.GOOGLE_CLIENT_ID,
          clientSecret: env.GOOGLE_CLIENT_SECRET,
          authUrl: env.GOOGLE_AUTH_URL || 'https://accounts.google.com/o/oauth2/v2/auth',
          tokenUrl: env.GOOGLE_TOKEN_URL || 'https://oauth2.googleapis.com/token',
          userInfoUrl: env.GOOGLE_USERINFO_URL || 'https://openidconnect.googleapis.com/v1/userinfo',
        }
      : null;
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseFile: join(dataDir, 'lectern.sqlite'),
    databaseUrl,
    jwtSecret: loadJwtSecret(env, dataDir, databaseUrl !== null),
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    fetchAllowedOrigins: (env.FETCH_ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    google,
    loginFailuresPerEmail: intSetting(env, 'LOGIN_FAILURES_PER_EMAIL', 10),
    loginFailuresPerIp: intSetting(env, 'LOGIN_FAILURES_PER_IP', 50),
    loginWindowMs: intSetting(env, 'LOGIN_WINDOW_SECONDS', 15 * 60) * 1000,
    registrationsPerIp: intSetting(env, 'REGISTRATIONS_PER_IP', 30),
    registrationWindowMs: intSetting(env, 'REGISTRATION_WINDOW_SECONDS', 60 * 60) * 1000,
    trustProxy: trustProxySetting(env.TRUST_PROXY),
    savesPerUser: Math.max(1, intSetting(env, 'SAVES_PER_USER', 4)),
    savesInFlight: Math.max(1, intSetting(env, 'SAVES_IN_FLIGHT', 32)),
    uploadsPerUser: Math.max(1, intSetting(env, 'UPLOADS_PER_USER', 2)),
    uploadsInFlight: Math.max(1, intSetting(env, 'UPLOADS_IN_FLIGHT', 4)),
    ocrTimeoutMs: Math.max(1, intSetting(env, 'OCR_TIMEOUT_MS', 60_000)),
    requestTimeoutMs: Math.max(1, intSetting(env, 'REQUEST_TIMEOUT_MS', 120_000)),
    extractionQueueWaitMs: Math.max(1, intSetting(env, 'EXTRACTION_QUEUE_WAIT_MS', 30_000)),
    jobConcurrency: Math.max(1, intSetting(env, 'JOB_CONCURRENCY', 4)),
    jobConcurrencyPerUser: Math.max(1, intSetting(env, 'JOB_CONCURRENCY_PER_USER', 2)),
    jobRetryBaseMs: Math.max(1, intSetting(env, 'JOB_RETRY_BASE_MS', 5_000)),
    jobExpireSeconds: jobExpireSetting(env),
    role: roleSetting(env.ROLE, databaseUrl),
    imageFetchTimeoutMs: Math.max(1, intSetting(env, 'IMAGE_FETCH_TIMEOUT_MS', 15_000)),
    idempotencyTtlMs: intSetting(env, 'IDEMPOTENCY_TTL_SECONDS', 7 * 24 * 60 * 60) * 1000,
    syncEventsPerUser: Math.max(1, intSetting(env, 'SYNC_EVENTS_PER_USER', 10)),
    syncEventsMax: Math.max(1, intSetting(env, 'SYNC_EVENTS_MAX', 5_000)),
    syncEventsHeartbeatMs: Math.max(10, intSetting(env, 'SYNC_EVENTS_HEARTBEAT_MS', 25_000)),
    syncEventsTicketSeconds: Math.max(
      1,
      intSetting(env, 'SYNC_EVENTS_TICKET_SECONDS', SYNC_EVENTS_TICKET_SECONDS),
    ),
    appDir: env.APP_DIR ? resolve(env.APP_DIR) : (defaults.appDir ?? null),
    logger: env.LOG_LEVEL !== 'silent' && env.NODE_ENV !== 'test',
    s3: s3Setting(env),
  };
}
