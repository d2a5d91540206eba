// Sessions back every token: logout and account deletion revoke them, so a token stops working at once.
import { newId, TOKEN_LIFETIME_SECONDS } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import { nowIso } from './change-log';
import { sql } from 'drizzle-orm';

export interface TokenClaims {
  sub: string;
  sid: string;
}

export async function createSession(db: Queryable, userId: string): Promise<TokenClaims> {
  const id = newId();
  const now = Date.now();
  await db.run(
    sql`INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (${id}, ${userId}, ${new Date(now).toISOString()}, ${new Date(now + TOKEN_LIFETIME_SECONDS * 1000).toISOString()})`,
  );
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
  const row = (await db.get(
    sql`SELECT expires_at FROM sessions WHERE id = ${claims.sid} AND user_id = ${claims.sub} AND revoked_at IS NULL AND expires_at > ${nowIso()}`,
  )) as { expires_at: string } | undefined;
  if (!row) return false;
  if (activeSessions.size >= ACTIVE_SESSIONS_MAX) activeSessions.clear();
  activeSessions.set(claims.sid, { userId: claims.sub, expiresAt: Date.parse(row.expires_at) });
  return true;
}

export async function revokeSession(db: Queryable, sessionId: string): Promise<void> {
  activeSessions.delete(sessionId);
  await db.run(
    sql`UPDATE sessions SET revoked_at = ${nowIso()} WHERE id = ${sessionId} AND revoked_at IS NULL`,
  );
}

/** "Sign out everywhere": every session of the user is revoked, so every token of theirs answers 401. */
export async function revokeUserSessions(db: Queryable, userId: string): Promise<void> {
  forgetUserSessions(db, userId);
  await db.run(
    sql`UPDATE sessions SET revoked_at = ${nowIso()} WHERE user_id = ${userId} AND revoked_at IS NULL`,
  );
}

/** Every session of the user ends (account deletion removes their rows). */
export function forgetUserSessions(_db: Queryable, userId: string): void {
  for (const [sessionId, session] of activeSessions) {
    if (session.userId === userId) activeSessions.delete(sessionId);
  }
}
