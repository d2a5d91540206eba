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

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return withHashSlot(
    () =>
      new Promise((resolve, reject) => {
        scrypt(
          password.normalize('NFKC'),
          salt,
          KEY_LENGTH,
          { ...options, maxmem: MAX_MEMORY },
          (error, key) => (error ? reject(error) : resolve(key)),
        );
      }),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = SCRYPT_PARAMS;
  const key = await derive(password, salt, SCRYPT_PARAMS);
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface StoredHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function parseStored(stored: string): StoredHash | null {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash || rest.length > 0) return null;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(params).every((value) => Number.isInteger(value) && value > 0)) return null;
  return { ...params, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, { N: parsed.N, r: parsed.r, p: parsed.p });
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
}

/** True when a stored hash was made with another cost than today's: store a new one at next sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parseStored(stored);
  return (
    !parsed ||
    parsed.N !== SCRYPT_PARAMS.N ||
    parsed.r !== SCRYPT_PARAMS.r ||
    parsed.p !== SCRYPT_PARAMS.p ||
    parsed.hash.length !== KEY_LENGTH
  );
}

/** A stable hash to compare against when the email is unknown, so timing doesn't reveal accounts. */
export const UNKNOWN_USER_HASH = await hashPassword(randomBytes(16).toString('hex'));
