import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { addReader, openMemoryDb } from '../testing/memory-db';
import { SignInCodes } from './google-sign-in-codes';

const NONCE = 'n'.repeat(32);

let db: Db;
let user: string;
beforeEach(async () => {
  db = openMemoryDb();
  user = await addReader(db);
});
afterEach(() => db.close());

describe('SignInCodes', () => {
  it('trades a code for its user once, with its own nonce only', async () => {
    const codes = new SignInCodes(db);
    const code = (await codes.issue(user, NONCE, 0)) ?? '';
    expect(await codes.redeem(code, NONCE, 1)).toBe(user);
    expect(await codes.redeem(code, NONCE, 2)).toBeNull();
    const other = (await codes.issue(user, NONCE, 0)) ?? '';
    expect(await codes.redeem(other, 'm'.repeat(32), 1)).toBeNull();
    expect(await codes.redeem(other, NONCE, 1)).toBeNull();
  });

  it('expires a code after about a minute', async () => {
    const codes = new SignInCodes(db);
    const fresh = (await codes.issue(user, NONCE, 0)) ?? '';
    const late = (await codes.issue(user, NONCE, 0)) ?? '';
    expect(await codes.redeem(fresh, NONCE, 59_000)).toBe(user);
    expect(await codes.redeem(late, NONCE, 60_000)).toBeNull();
  });

  it('holds a bounded number of codes, and expired ones go', async () => {
    const codes = new SignInCodes(db, 60_000, 100);
    for (let index = 0; index < 100; index += 1) expect(await codes.issue(user, NONCE, 0)).not.toBeNull();
    expect(await codes.issue(user, NONCE, 1)).toBeNull();
    expect(await codes.size()).toBe(100);
    expect(await codes.issue(user, NONCE, 60_001)).not.toBeNull();
    expect(await codes.size()).toBe(1);
  });

  it('stores digests only: the code and the nonce appear nowhere in the table', async () => {
    const codes = new SignInCodes(db);
    const code = (await codes.issue(user, NONCE, 0)) ?? '';
    const rows = await db.orm.select().from(db.tables.signInCodes);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(JSON.stringify(rows)).not.toContain(NONCE);
  });
});
