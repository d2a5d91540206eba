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

export function isSessionActive(db: Db, claims: TokenClaims): boolean {
  const row = db
    .statement(
      'SELECT 1 FROM sessions WHERE id = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?',
    )
    .get(claims.sid, claims.sub, nowIso());
  return row !== undefined;
}

export function revokeSession(db: Db, sessionId: string): void {
  db.statement('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(
    nowIso(),
    sessionId,
  );
}
