// Configuration from the environment (DESIGN.md section 6); every setting is optional.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
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
  /** Saves by URL (and metadata fetches) in progress at once: per user, and on the whole server. */
  savesPerUser: number;
  savesInFlight: number;
  /** Screenshot uploads in progress at once (each holds up to 15 MB until OCR is done). */
  uploadsPerUser: number;
  uploadsInFlight: number;
  /** OCR of one screenshot is stopped after this long. */
  ocrTimeoutMs: number;
  /** How long a write's Idempotency-Key is remembered (IDEMPOTENCY_TTL_SECONDS, 7 days by default). */
  idempotencyTtlMs: number;
  /** Where the built PWA is served from; absent until `npm run build` has run. */
  appDir: string | null;
  logger: boolean;
}

type Env = Record<string, string | undefined>;

function intSetting(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

/** The JWT secret comes from JWT_SECRET, or is generated once and kept in the data folder. */
function loadJwtSecret(env: Env, dataDir: string): string {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: Env = process.env, defaults: { appDir?: string | null } = {}): Config {
  const port = intSetting(env, 'PORT', 3000);
  const dataDir = resolve(env.DATA_DIR || './data');
  mkdirSync(dataDir, { recursive: true });
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
    jwtSecret: loadJwtSecret(env, dataDir),
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
    savesPerUser: Math.max(1, intSetting(env, 'SAVES_PER_USER', 4)),
    savesInFlight: Math.max(1, intSetting(env, 'SAVES_IN_FLIGHT', 32)),
    uploadsPerUser: Math.max(1, intSetting(env, 'UPLOADS_PER_USER', 2)),
    uploadsInFlight: Math.max(1, intSetting(env, 'UPLOADS_IN_FLIGHT', 4)),
    ocrTimeoutMs: Math.max(1, intSetting(env, 'OCR_TIMEOUT_MS', 60_000)),
    idempotencyTtlMs: intSetting(env, 'IDEMPOTENCY_TTL_SECONDS', 7 * 24 * 60 * 60) * 1000,
    appDir: env.APP_DIR ? resolve(env.APP_DIR) : (defaults.appDir ?? null),
    logger: env.LOG_LEVEL !== 'silent' && env.NODE_ENV !== 'test',
  };
}
