// Writes sent with an `Idempotency-Key` are applied once: a replay answers the stored first result.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/connection';
import { badRequest } from '../services/errors';
import { nowIso } from '../services/change-log';

const KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

interface StoredResult {
  status_code: number;
  body: string | null;
  method: string;
  path: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | null;
  }
}

function keyOf(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined || request.method === 'GET' || request.method === 'HEAD') return null;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !KEY_PATTERN.test(key))
    throw badRequest('Idempotency-Key must be 8 to 128 letters, digits, - or _');
  return key;
}

/** A preHandler for authenticated write routes, to run after `authenticate`. */
export function idempotencyGuard(db: Db) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    request.idempotencyKey = keyOf(request);
    if (!request.idempotencyKey) return;
    const stored = db
      .statement('SELECT status_code, body, method, path FROM idempotency_keys WHERE user_id = ? AND key = ?')
      .get(request.userId, request.idempotencyKey) as StoredResult | undefined;
    if (!stored) return;
    if (stored.method !== request.method || stored.path !== request.url) {
      throw badRequest('This Idempotency-Key was already used for another request');
    }
    reply.header('idempotent-replay', 'true').code(stored.status_code);
    if (stored.body === null) return reply.send();
    return reply.type('application/json; charset=utf-8').send(stored.body);
  };
}

export function registerIdempotencyKey(app: FastifyInstance): void {
  app.decorateRequest('idempotencyKey', null);
}

/** An onSend hook for the same write routes: remembers what the first try answered. */
export function idempotencyStore(db: Db) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!request.idempotencyKey || !request.userId || reply.getHeader('idempotent-replay')) return payload;
    // Server errors are not remembered: the client retries those and should get a fresh try.
    if (reply.statusCode >= 500) return payload;
    const body = typeof payload === 'string' ? payload : payload == null ? null : undefined;
    if (body === undefined) return payload;
    const userStillExists =
      db.statement('SELECT 1 FROM users WHERE id = ?').get(request.userId) !== undefined;
    // After DELETE /auth/account there is no one left to replay for.
    if (!userStillExists) return payload;
    db.statement(
      `INSERT INTO idempotency_keys (user_id, key, method, path, status_code, body, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ).run(
      request.userId,
      request.idempotencyKey,
      request.method,
      request.url,
      reply.statusCode,
      body,
      nowIso(),
    );
    return payload;
  };
}
