// Sessions back every token: logout and account deletion revoke them, so a token stops working at once.
import { newId, SERVER_ERRORS, TOKEN_LIFETIME_SECONDS } from '@lectern/shared-schema';
import { and, eq, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { asBoolean, preparedSelectFirst } from '../db/typed-select';
import type { Queryable } from '../db/connection';
import { nowIso } from './change-log';
import { unauthorized } from './errors';

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
 * Asked on every signed-in request, of the database every node shares, with no cache in front: a session
 * revoked on one node (logout, sign out everywhere, account deletion) is refused by every other at once.
 * A cache could only be trusted until another node revoked the session, which it would not hear of in
 * time. One lookup by primary key, as SQL text with plain names (the same on both engines): the engine
 * keeps the statement prepared and drizzle has no table or column to render, 5 µs of CPU a check where
 * the builder took 13 to 40 (it prepares the statement again on every call on SQLite).
 */
export async function isSessionActive(db: Queryable, claims: TokenClaims): Promise<boolean> {
  const row = await readSessionActive(db, sessionValues(claims));
  return row?.active === true;
}

const readSessionActive = preparedSelectFirst(() => ({
  selection: { active: asBoolean(SESSION_IS_ACTIVE) },
  rest: sql``,
}));

/**
 * The condition isSessionActive asks, for a route that asks it in the same query as its answer (one round
 * trip to the database instead of two: the most read route, GET /articles/{id}, plugins/auth.ts). Its
 * values are placeholders (the query is built once: db/typed-select.ts preparedSelectFirst), given by
 * sessionValues.
 */
export const SESSION_IS_ACTIVE: SQL = sessionIsActive(
  sql.placeholder('sid'),
  sql.placeholder('sub'),
  sql.placeholder('now'),
);

/** Whether the session `sid` of user `sub` is still active at `now`: SESSION_IS_ACTIVE over any values. */
export function sessionIsActive(sid: SQLWrapper, sub: SQLWrapper, now: SQLWrapper): SQL {
  return sql`EXISTS (SELECT 1 FROM sessions WHERE id = ${sid}
      AND user_id = ${sub} AND revoked_at IS NULL AND expires_at > ${now})`;
}

/** Whether the token's session is still active now, as a condition of a route's own query. */
export function sessionIsActiveNow(claims: TokenClaims): SQL {
  const { sid, sub, now } = sessionValues(claims);
  return sessionIsActive(sql`${sid}`, sql`${sub}`, sql`${now}`);
}

/**
 * What a route's own query finds with the token's session asked in it (plugins/auth.ts,
 * `sessionCheckedByRoute`): one round trip fewer. A revoked or expired session finds nothing; only then,
 * or when nothing matches, is the session asked alone, so a revoked session's answer is a 401, never an
 * empty list.
 */
export async function foundInSession<T>(
  db: Queryable,
  claims: TokenClaims,
  find: (sessionIsActive: SQL) => Promise<T[]>,
): Promise<T[]> {
  const found = await find(sessionIsActiveNow(claims));
  if (found.length === 0 && !(await isSessionActive(db, claims)))
    throw unauthorized(SERVER_ERRORS.unauthorized);
  return found;
}

/** The values SESSION_IS_ACTIVE asks for. */
export function sessionValues(claims: TokenClaims): { sid: string; sub: string; now: string } {
  return { sid: claims.sid, sub: claims.sub, now: nowIso() };
}

export async function revokeSession(db: Queryable, sessionId: string): Promise<void> {
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
  const { sessions } = db.tables;
  await db.transaction(async (tx) => {
    await tx.orm
      .update(sessions)
      .set({ revokedAt: nowIso() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  });
}
