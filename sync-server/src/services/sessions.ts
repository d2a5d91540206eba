// Sessions back every token: logout and account deletion revoke them, so a token stops working at once.
import { newId, TOKEN_LIFETIME_SECONDS } from '@lectern/shared-schema';
import type { Db } from '../db/connection';
import { nowIso } from './change-log';

export interface TokenClaims {
  sub: string;
  sid: string;
}

export function createSession(db: Db, userId: string): TokenClaims {
  const id = newId();
  const now = Date.now();
  db.statement('INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
    id,
    userId,
    new Date(now).toISOString(),
    new Date(now + TOKEN_LIFETIME_SECONDS * 1000).toISOString(),
  );
  return { sub: userId, sid: id };
}

/**
 * Sessions seen active, by id, with their user and expiry. One server process owns the database, and every
 * way a session ends (logout, account deletion) goes through this module and drops it here too, so the
 * cache never answers for a revoked session; it saves a query on every request.
 */
const activeSessionsByDb = new WeakMap<Db, Map<string, { userId: string; expiresAt: number }>>();
const ACTIVE_SESSIONS_MAX = 50_000;

function activeSessionsOf(db: Db) {
  let sessions = activeSessionsByDb.get(db);
  if (!sessions) {
    sessions = new Map();
    activeSessionsByDb.set(db, sessions);
  }
  return sessions;
}

export function isSessionActive(db: Db, claims: TokenClaims): boolean {
  const activeSessions = activeSessionsOf(db);
  const cached = activeSessions.get(claims.sid);
  if (cached) {
    if (cached.userId === claims.sub && cached.expiresAt > Date.now()) return true;
    activeSessions.delete(claims.sid);
  }
  const row = db
    .statement(
      'SELECT expires_at FROM sessions WHERE id = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?',
    )
    .get(claims.sid, claims.sub, nowIso()) as { expires_at: string } | undefined;
  if (!row) return false;
  if (activeSessions.size >= ACTIVE_SESSIONS_MAX) activeSessions.clear();
  activeSessions.set(claims.sid, { userId: claims.sub, expiresAt: Date.parse(row.expires_at) });
  return true;
}

export function revokeSession(db: Db, sessionId: string): void {
  activeSessionsOf(db).delete(sessionId);
  db.statement('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(
    nowIso(),
    sessionId,
  );
}

/** "Sign out everywhere": every session of the user is revoked, so every token of theirs answers 401. */
export function revokeUserSessions(db: Db, userId: string): void {
  forgetUserSessions(db, userId);
  db.statement('UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL').run(
    nowIso(),
    userId,
  );
}

/** Every session of the user ends (account deletion removes their rows). */
export function forgetUserSessions(db: Db, userId: string): void {
  const activeSessions = activeSessionsOf(db);
  for (const [sessionId, session] of activeSessions) {
    if (session.userId === userId) activeSessions.delete(sessionId);
  }
}
