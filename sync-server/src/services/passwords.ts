// Password hashing with scrypt (node:crypto), stored as `scrypt$N$r$p$salt$hash`: every hash carries its
// own cost, so raising the cost later still verifies older hashes, and `needsRehash` tells sign-in to
// store a new one once the password has been proven.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { HttpError } from './errors';

const KEY_LENGTH = 64;
/** OWASP's minimum for scrypt: 2^17 rounds of 1 KiB blocks, 128 MiB of memory per hash. */
export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
/** Room for the current cost and a little more; a stored hash asking for more than this is refused. */
const MAX_MEMORY = 256 * 1024 * 1024;
/**
 * Hashes running at once. Each takes 128 MiB and a thread of libuv's small pool (which file and DNS work
 * share), so the rest wait their turn.
 */
const MAX_CONCURRENT_HASHES = 2;
/**
 * Hashes waiting for a slot. The per-email and per-network caps don't bound the total (many networks at
 * once), and every waiter holds a request open: past this many, sign-ins and sign-ups are turned away
 * until the queue drains (some seconds for this many at today's cost on a small machine).
 */
export const MAX_WAITING_HASHES = 32;
/** What the refusal's Retry-After says: roughly how long a full queue takes to drain. */
const BUSY_RETRY_AFTER_SECONDS = 5;

/** Every hash slot is taken and the queue is full: 429 with Retry-After. */
export class PasswordHashingBusyError extends HttpError {
  constructor() {
    super(429, SERVER_ERRORS.signInsBusy, { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) });
    this.name = 'PasswordHashingBusyError';
  }
}

let running = 0;
const waiting: (() => void)[] = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) {
    if (waiting.length >= MAX_WAITING_HASHES) throw new PasswordHashingBusyError();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running += 1;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, so `running` only drops when nobody waits.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

function derive(
  password: string,
  salt: Buffer,
  options: ScryptOptions,
  keyLength = KEY_LENGTH,
): Promise<Buffer> {
  return withHashSlot(
    () =>
      new Promise((resolve, reject) => {
        scrypt(
          password.normalize('NFKC'),
          salt,
          keyLength,
          { ...options, maxmem: MAX_MEMORY },
          (error, key) => (error ? reject(error) : resolve(key)),
        );
      }),
  );
}

/** scrypt's cost parameters: N rounds of r KiB-ish blocks, p lanes. */
export interface ScryptCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** The cost new hashes are made at: SCRYPT_PARAMS, unless a test run lowered it (below). */
let cost: ScryptCost = SCRYPT_PARAMS;

/**
 * Makes new hashes at `next` in this process. For the test runs only (testing/quick-password-hashing.ts):
 * their servers sign up thousands of accounts, and at SCRYPT_PARAMS each sign-up or sign-in spends half a
 * second of a core. Not a setting: no environment variable reaches it. The tests about hashing itself
 * (its cost, its queue, the sign-in limits under a burst) run at SCRYPT_PARAMS.
 */
export function setPasswordHashCost(next: ScryptCost): void {
  cost = next;
  unknownUserHashOnce = undefined;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = cost;
  const key = await derive(password, salt, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface StoredHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

/**
 * The costs a stored hash may ask for. A stored hash is data (a restored backup, an edited row): one with
 * an absurd cost must not become a minutes-long scrypt or a server error, only a wrong password.
 */
const STORED_LIMITS = { maxLog2N: 20, maxR: 32, maxP: 16, minSalt: 8, maxSalt: 64, minKey: 16, maxKey: 128 };
const DECIMAL = /^[1-9][0-9]{0,9}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function parseStored(stored: string): StoredHash | null {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || rest.length > 0) return null;
  if (![n, r, p].every((value) => value !== undefined && DECIMAL.test(value))) return null;
  if (![salt, hash].every((value) => value !== undefined && BASE64.test(value))) return null;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  // N a power of two (scrypt's own rule) no larger than 2^20.
  if (params.N < 2 || params.N > 2 ** STORED_LIMITS.maxLog2N || (params.N & (params.N - 1)) !== 0)
    return null;
  if (params.r > STORED_LIMITS.maxR || params.p > STORED_LIMITS.maxP) return null;
  // scrypt's work grows with N·r·p: at most twice today's cost, whatever the row says.
  if (128 * params.N * params.r * params.p > MAX_MEMORY) return null;
  const parsed = { ...params, salt: Buffer.from(salt!, 'base64'), hash: Buffer.from(hash!, 'base64') };
  if (parsed.salt.length < STORED_LIMITS.minSalt || parsed.salt.length > STORED_LIMITS.maxSalt) return null;
  if (parsed.hash.length < STORED_LIMITS.minKey || parsed.hash.length > STORED_LIMITS.maxKey) return null;
  return parsed;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed) return false;
  const key = await derive(
    password,
    parsed.salt,
    { N: parsed.N, r: parsed.r, p: parsed.p },
    parsed.hash.length,
  );
  return timingSafeEqual(key, parsed.hash);
}

/** True when a stored hash was made with another cost than today's: store a new one at next sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parseStored(stored);
  return (
    !parsed ||
    parsed.N !== cost.N ||
    parsed.r !== cost.r ||
    parsed.p !== cost.p ||
    parsed.hash.length !== KEY_LENGTH
  );
}

let unknownUserHashOnce: Promise<string> | undefined;

/**
 * A stable hash at today's cost to check against when the email is unknown, so timing doesn't reveal
 * accounts. Made at the first such sign-in, not at start (start-up spends no half second on it).
 */
export function unknownUserHash(): Promise<string> {
  unknownUserHashOnce ??= hashPassword(randomBytes(16).toString('hex')).catch((error: unknown) => {
    // A busy queue refused it: the next unknown sign-in tries again.
    unknownUserHashOnce = undefined;
    throw error;
  });
  return unknownUserHashOnce;
}
