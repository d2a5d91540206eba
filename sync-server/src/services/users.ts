// Accounts: sign-up, sign-in, profile and deletion (the export is services/export.ts).
import { newId, SERVER_ERRORS, type LoginBody, type RegisterBody, type User } from '@lectern/shared-schema';
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/connection';
import { retryingDeadlocks } from '../db/deadlocks';
import type { users } from '../db/schema';
import { nowIso } from './change-log';
import { conflict, unauthorized } from './errors';
import {
  hashPassword,
  needsRehash,
  PasswordHashingBusyError,
  unknownUserHash,
  verifyPassword,
} from './passwords';

type UserRow = typeof users.$inferSelect;

const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  username: row.username,
  avatarUrl: row.avatarUrl,
  created_at: row.createdAt,
});

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

async function findUserRow(db: Queryable, userId: string): Promise<UserRow | undefined> {
  const { users } = db.tables;
  return (await db.orm.select().from(users).where(eq(users.id, userId)))[0];
}

async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const { users } = db.tables;
  return (
    await db.orm
      .select()
      .from(users)
      .where(eq(users.email, normalizeEmail(email)))
  )[0];
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
    avatarUrl: null,
    passwordHash,
    googleSub: null,
    createdAt: nowIso(),
  };
  try {
    await db.transaction(async (tx) => {
      await tx.orm.insert(tx.tables.users).values(row);
    });
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
  const matches = await verifyPassword(body.password, row?.passwordHash ?? (await unknownUserHash()));
  if (!row?.passwordHash || !matches) return null;
  if (needsRehash(row.passwordHash)) {
    // The upgrade can wait for a quieter moment: a busy hash queue doesn't refuse a proven password.
    const upgraded = await hashPassword(body.password).catch((error: unknown) => {
      if (error instanceof PasswordHashingBusyError) return null;
      throw error;
    });
    if (!upgraded) return toUser(row);
    // Only if the password wasn't changed meanwhile.
    const { users } = db.tables;
    const provenHash = row.passwordHash;
    await db.transaction(async (tx) => {
      await tx.orm
        .update(users)
        .set({ passwordHash: upgraded })
        .where(and(eq(users.id, row.id), eq(users.passwordHash, provenHash)));
    });
  }
  return toUser(row);
}

export async function updateProfile(db: Queryable, userId: string, username: string): Promise<User> {
  const { users } = db.tables;
  await db.transaction(async (tx) => {
    await tx.orm.update(users).set({ username: username.trim() }).where(eq(users.id, userId));
  });
  return await getUser(db, userId);
}

/**
 * Erases every row of the user: every table refers to users (directly or through articles, tags and lists)
 * with ON DELETE CASCADE, and the full-text triggers follow. Sessions go too, so their tokens answer 401.
 * On PostgreSQL a job of the user's finishing meanwhile (an article's images archived) and the cascade may
 * each hold rows the other is about to write (the article, its feed entries): PostgreSQL ends one of the
 * two, and the deletion, if it was that one, runs again (it answered 500 in about one run of four of its
 * test before).
 */
export async function deleteUser(db: Queryable, userId: string): Promise<void> {
  await retryingDeadlocks(() =>
    db.transaction(async (tx) => {
      await tx.orm.delete(tx.tables.users).where(eq(tx.tables.users.id, userId));
    }),
  );
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
    const { users } = tx.tables;
    const [bySub] = await tx.orm.select().from(users).where(eq(users.googleSub, profile.sub));
    if (bySub) return toUser(bySub);
    const byEmail = await findUserByEmail(tx, profile.email);
    if (byEmail) {
      if (byEmail.passwordHash !== null || byEmail.googleSub !== null) throw new GoogleEmailTakenError();
      await tx.orm
        .update(users)
        .set({ googleSub: profile.sub, avatarUrl: byEmail.avatarUrl ?? profile.picture })
        .where(eq(users.id, byEmail.id));
      return await getUser(tx, byEmail.id);
    }
    const id = newId();
    await tx.orm.insert(users).values({
      id,
      email: normalizeEmail(profile.email),
      username: profile.name,
      avatarUrl: profile.picture,
      passwordHash: null,
      googleSub: profile.sub,
      createdAt: nowIso(),
    });
    return await getUser(tx, id);
  });
}
