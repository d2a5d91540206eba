// Sessions back every token: logout and account deletion revoke them, so a token stops working at once.
import { newId, TOKEN_LIFETIME_SECONDS } from '@lectern/shared-schema';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/connection';
import { nowIso } from './change-log';

export interface TokenClaims {
  sub: string;
  sid: string;
}

export async function createSession(db: Queryable, userId: string): Promise<TokenClaims> {
  const id = newId();
  const now = Date.now();
  // A builder write runs in a transaction (the Db's own builder only reads: db/connection.ts).
  await db.transaction(async (tx) => {
    await tx.orm.insert(tx.tables.sessions).values({
      id,
      userId,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + TOKEN_LIFETIME_SECONDS * 1000).toISOString(),
    });
  });
  return { sub: userId, sid: id };
}

/**
 * Sessions seen active, by id, with their user and expiry. One server process owns the database, and every
 * way a session ends (logout, account deletion) goes through this module and drops it here too, so the
 * cache never answers for a revoked session; it saves a query on every request.
 */
// One cache for the process, keyed by session id: ids are unique across databases, and a session ended
// inside a transaction (handed a `tx`, not the Db itself) must leave this same cache.
const activeSessions = new Map<string, { userId: string; expiresAt: number }>();
const ACTIVE_SESSIONS_MAX = 50_000;

/** True when the session is known active without asking the database (seen active, not ended since). */
export function isSessionKnownActive(claims: TokenClaims): boolean {
  const cached = activeSessions.get(claims.sid);
  if (!cached) return false;
  if (cached.userId === claims.sub && cached.expiresAt > Date.now()) return true;
  activeSessions.delete(claims.sid);
  return false;
}

export async function isSessionActive(db: Queryable, claims: TokenClaims): Promise<boolean> {
  if (isSessionKnownActive(claims)) return true;
  const { sessions } = db.tables;
  const [row] = await db.orm
    .select({ expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, claims.sid),
        eq(sessions.userId, claims.sub),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, nowIso()),
      ),
    );
  if (!row) return false;
  if (activeSessions.size >= ACTIVE_SESSIONS_MAX) activeSessions.clear();
  activeSessions.set(claims.sid, { userId: claims.sub, expiresAt: Date.parse(row.expiresAt) });
  return true;
}

export async function revokeSession(db: Queryable, sessionId: string): Promise<void> {
  activeSessions.delete(sessionId);
  const { sessions } = db.tables;
  await db.transaction(async (tx) => {
    await tx.orm
      .update(sessions)
      .set({ revokedAt: nowIso() })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  });
}

/** "Sign out everywhere": every session of the user is revoked, so every token of theirs answers 401. */
export async function revokeUserSessions(db: Queryable, userId: string): Promise<void> {
  forgetUserSessions(db, userId);
  const { sessions } = db.tables;
  await db.transaction(async (tx) => {
    await tx.orm
      .update(sessions)
      .set({ revokedAt: nowIso() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  });
}

/** Every session of the user ends (account deletion removes their rows). */
export function forgetUserSessions(_db: Queryable, userId: string): void {
  for (const [sessionId, session] of activeSessions) {
    if (session.userId === userId) activeSessions.delete(sessionId);
  }
}
