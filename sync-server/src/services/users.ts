// Accounts: sign-up, sign-in, profile and deletion (the export is services/export.ts).
import { newId, SERVER_ERRORS, type LoginBody, type RegisterBody, type User } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import { nowIso } from './change-log';
import { conflict, unauthorized } from './errors';
import {
  hashPassword,
  needsRehash,
  PasswordHashingBusyError,
  UNKNOWN_USER_HASH,
  verifyPassword,
} from './passwords';
import { forgetUserSessions } from './sessions';
import { sql } from 'drizzle-orm';

interface UserRow {
  id: string;
  email: string;
  username: string | null;
  avatar_url: string | null;
  password_hash: string | null;
  google_sub: string | null;
  created_at: string;
}

const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  username: row.username,
  avatarUrl: row.avatar_url,
  created_at: row.created_at,
});

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

async function findUserRow(db: Queryable, userId: string): Promise<UserRow | undefined> {
  return (await db.get(sql`SELECT * FROM users WHERE id = ${userId}`)) as UserRow | undefined;
}

async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  return (await db.get(sql`SELECT * FROM users WHERE email = ${normalizeEmail(email)}`)) as
    UserRow | undefined;
}

export async function getUser(db: Queryable, userId: string): Promise<User> {
  const row = await findUserRow(db, userId);
  if (!row) throw unauthorized(SERVER_ERRORS.unauthorized);
  return toUser(row);
}

export async function registerUser(db: Queryable, body: RegisterBody): Promise<User> {
  if (await findUserByEmail(db, body.email)) throw conflict(SERVER_ERRORS.emailTaken);
  const passwordHash = await hashPassword(body.password);
  const row: UserRow = {
    id: newId(),
    email: normalizeEmail(body.email),
    username: body.username.trim(),
    avatar_url: null,
    password_hash: passwordHash,
    google_sub: null,
    created_at: nowIso(),
  };
  try {
    await db.run(
      sql`INSERT INTO users (id, email, username, avatar_url, password_hash, google_sub, created_at) VALUES (${row.id}, ${row.email}, ${row.username}, ${row.avatar_url}, ${row.password_hash}, ${row.google_sub}, ${row.created_at})`,
    );
  } catch (error) {
    // Two sign-ups with one email racing past the check above: the unique index decides.
    if (error instanceof Error && /UNIQUE/.test(error.message)) throw conflict(SERVER_ERRORS.emailTaken);
    throw error;
  }
  return toUser(row);
}

/**
 * The user whose email and password match, or null; always spends one hash so timing reveals nothing.
 * A hash made at an older cost is replaced by one at today's cost once the password has been proven.
 */
export async function authenticate(db: Queryable, body: LoginBody): Promise<User | null> {
  const row = await findUserByEmail(db, body.email);
  const matches = await verifyPassword(body.password, row?.password_hash ?? UNKNOWN_USER_HASH);
  if (!row?.password_hash || !matches) return null;
  if (needsRehash(row.password_hash)) {
    // The upgrade can wait for a quieter moment: a busy hash queue doesn't refuse a proven password.
    const upgraded = await hashPassword(body.password).catch((error: unknown) => {
      if (error instanceof PasswordHashingBusyError) return null;
      throw error;
    });
    if (!upgraded) return toUser(row);
    // Only if the password wasn't changed meanwhile.
    await db.run(
      sql`UPDATE users SET password_hash = ${upgraded} WHERE id = ${row.id} AND password_hash = ${row.password_hash}`,
    );
  }
  return toUser(row);
}

export async function updateProfile(db: Queryable, userId: string, username: string): Promise<User> {
  await db.run(sql`UPDATE users SET username = ${username.trim()} WHERE id = ${userId}`);
  return await getUser(db, userId);
}

/**
 * Erases every row of the user: every table refers to users (directly or through articles, tags and lists)
 * with ON DELETE CASCADE, and the full-text triggers follow. Sessions go too, so their tokens answer 401.
 */
export async function deleteUser(db: Queryable, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run(sql`DELETE FROM users WHERE id = ${userId}`);
  });
  forgetUserSessions(db, userId);
}

export interface GoogleProfile {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

/** Google sign-in found the email taken by an account it may not enter (see findOrCreateGoogleUser). */
export class GoogleEmailTakenError extends Error {
  constructor() {
    super(SERVER_ERRORS.googleEmailTaken);
    this.name = 'GoogleEmailTakenError';
  }
}

/** Google says the account's email is not verified: its holder may not own the address. */
export class GoogleEmailUnverifiedError extends Error {
  constructor() {
    super(SERVER_ERRORS.googleEmailUnverified);
    this.name = 'GoogleEmailUnverifiedError';
  }
}

/**
 * Signs in the Google account's user: by Google id, else a new account. An existing account with the same
 * email is never entered through Google: whoever created it with a password may not own the email (an
 * attacker can register victim@gmail.com first and wait), and an account already tied to another Google
 * id keeps it. The only link made is a verified email to an account that has neither a password nor a
 * Google id.
 */
export async function findOrCreateGoogleUser(db: Queryable, profile: GoogleProfile): Promise<User> {
  // An address Google has not verified may belong to someone else: no account is made or entered with it.
  if (!profile.emailVerified) throw new GoogleEmailUnverifiedError();
  return await db.transaction(async (tx) => {
    const bySub = (await tx.get(sql`SELECT * FROM users WHERE google_sub = ${profile.sub}`)) as
      UserRow | undefined;
    if (bySub) return toUser(bySub);
    const byEmail = await findUserByEmail(tx, profile.email);
    if (byEmail) {
      if (byEmail.password_hash !== null || byEmail.google_sub !== null) throw new GoogleEmailTakenError();
      await tx.run(
        sql`UPDATE users SET google_sub = ${profile.sub}, avatar_url = coalesce(avatar_url, ${profile.picture}) WHERE id = ${byEmail.id}`,
      );
      return await getUser(tx, byEmail.id);
    }
    const id = newId();
    await tx.run(
      sql`INSERT INTO users (id, email, username, avatar_url, password_hash, google_sub, created_at) VALUES (${id}, ${normalizeEmail(profile.email)}, ${profile.name}, ${profile.picture}, NULL, ${profile.sub}, ${nowIso()})`,
    );
    return await getUser(tx, id);
  });
}
