// Writes sent with an `Idempotency-Key` are applied once: a replay answers the first try's status. What is
// kept is small and short-lived: the status, the entity the answer named (a replay reads it as it is now,
// so no article body is copied here and nothing outlives the entity's deletion), a refusal's `{error}`,
// and the row expires after IDEMPOTENCY_TTL (7 days by default), far past any client's retries.
import { and, eq, gte, isNotNull, lt, or } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/connection';
import { getArticle } from '../services/article-rows';
import { badRequest, HttpError } from '../services/errors';
import { getHighlight } from '../services/highlights';
import { getImport } from '../services/imports';
import { getList, getListWithArticles } from '../services/lists';
import { getTag } from '../services/tags';
import { getUser } from '../services/users';
import { nowIso } from '../services/change-log';

const KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** How often at most the expired rows are swept, as writes come in. */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

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

/** The entity a successful answer names, read off the front of its JSON: every entity starts with its id. */
const ANSWER_PREFIX = /^\{"(article|highlight|list|tag|user|import)":\{"id":"([^"\\]{1,128})"/;

function answeredEntity(payload: string) {
  const match = ANSWER_PREFIX.exec(payload.slice(0, 200));
  if (!match) return { entity: null, entityId: null };
  const entity = match[1] === 'list' && payload.includes('"articles":[') ? 'list_with_articles' : match[1];
  return { entity: entity ?? null, entityId: match[2] ?? null };
}

/** The answer a replay gives for a stored success: the entity as it is now, in its route's shape. */
async function currentAnswer(db: Queryable, userId: string, entity: string, id: string): Promise<unknown> {
  switch (entity) {
    case 'article':
      return { article: await getArticle(db, userId, id) };
    case 'highlight':
      return { highlight: await getHighlight(db, userId, id) };
    case 'list':
      return { list: await getList(db, userId, id) };
    case 'list_with_articles':
      return await getListWithArticles(db, userId, id);
    case 'tag':
      return { tag: await getTag(db, userId, id) };
    case 'user':
      return { user: await getUser(db, userId) };
    case 'import':
      return { import: await getImport(db, userId, id) };
    default:
      return undefined;
  }
}

export function registerIdempotencyKey(app: FastifyInstance): void {
  app.decorateRequest('idempotencyKey', null);
}

export interface IdempotencyOptions {
  /** How long a key is remembered. */
  ttlMs: number;
}

/** The preHandler and onSend hooks for authenticated write routes (the preHandler runs after `authenticate`). */
export function idempotencyHooks(db: Queryable, { ttlMs }: IdempotencyOptions) {
  let lastPrune = 0;
  const expiredBefore = () => new Date(Date.now() - ttlMs).toISOString();

  /** Drops expired rows, and full answers kept by older versions of the server. */
  async function pruneNowAndThen(): Promise<void> {
    if (Date.now() - lastPrune < Math.min(PRUNE_INTERVAL_MS, ttlMs)) return;
    lastPrune = Date.now();
    const { idempotencyKeys: keys } = db.tables;
    await db.transaction(async (tx) => {
      await tx.orm
        .delete(keys)
        .where(or(lt(keys.createdAt, expiredBefore()), and(lt(keys.statusCode, 400), isNotNull(keys.body))));
    });
  }

  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    request.idempotencyKey = keyOf(request);
    if (!request.idempotencyKey) return;
    await pruneNowAndThen();
    const { idempotencyKeys: keys } = db.tables;
    const [stored] = await db.orm
      .select({
        status_code: keys.statusCode,
        body: keys.body,
        entity: keys.entity,
        entity_id: keys.entityId,
        method: keys.method,
        path: keys.path,
      })
      .from(keys)
      .where(
        and(
          eq(keys.userId, request.userId),
          eq(keys.key, request.idempotencyKey),
          gte(keys.createdAt, expiredBefore()),
        ),
      );
    if (!stored) return;
    if (stored.method !== request.method || stored.path !== request.url) {
      throw badRequest('This Idempotency-Key was already used for another request');
    }
    let body: unknown = stored.body;
    if (stored.status_code < 400 && stored.entity && stored.entity_id) {
      try {
        body = JSON.stringify(await currentAnswer(db, request.userId, stored.entity, stored.entity_id));
      } catch (error) {
        // Deleted since the first try: the replay says so, as a request for it would now.
        if (error instanceof HttpError) {
          return reply
            .code(error.statusCode)
            .header('idempotent-replay', 'true')
            .send({ error: error.message });
        }
        throw error;
      }
    }
    reply.header('idempotent-replay', 'true').code(stored.status_code);
    if (typeof body !== 'string') return reply.send();
    return reply.type('application/json; charset=utf-8').send(body);
  };

  /** Remembers what the first try answered. */
  const store = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!request.idempotencyKey || !request.userId || reply.getHeader('idempotent-replay')) return payload;
    // Server errors and "try later" are not remembered: the client retries those and gets a fresh try.
    const status = reply.statusCode;
    if (status >= 500 || status === 429 || status === 408) return payload;
    if (payload != null && typeof payload !== 'string') return payload;
    const { users } = db.tables;
    const [userStillExists] = await db.orm
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, request.userId));
    // After DELETE /auth/account there is no one left to replay for.
    if (!userStillExists) return payload;
    const text = payload ?? null;
    const refusal = status >= 400;
    const { entity, entityId } = !refusal && text ? answeredEntity(text) : { entity: null, entityId: null };
    // A success whose entity this store can't read back again is not remembered: a replay gets a fresh try
    // rather than an empty answer.
    if (!refusal && text && !entity) return payload;
    const key = request.idempotencyKey;
    await db.transaction(async (tx) => {
      await tx.orm
        .insert(tx.tables.idempotencyKeys)
        .values({
          userId: request.userId,
          key,
          method: request.method,
          path: request.url,
          statusCode: status,
          body: refusal ? text : null,
          entity,
          entityId,
          createdAt: nowIso(),
        })
        .onConflictDoNothing();
    });
    return payload;
  };

  return { guard, store };
}
