// Live updates between devices: GET /api/sync/events, a Server-Sent Events stream that tells a signed-in
// device its change feed moved (live/live-streams.ts), and POST /api/sync/events/ticket, which trades a
// bearer token for the short-lived ticket a browser's EventSource puts in the stream's address instead.
import { SERVER_ERRORS, SyncEventsQuery, SyncEventsTicketResponse } from '@lectern/shared-schema';
import type { FastifyRequest } from 'fastify';
import { SYNC_EVENTS_TICKET_AUDIENCE, syncEventsTicketKey } from '../live/event-tickets';
import { HttpError, unauthorized } from '../services/errors';
import { isSessionActive, type TokenClaims } from '../services/sessions';
import type { RouteOptions, TypedFastify } from './types';

/** A node at its cap of streams: the device syncs by its timers meanwhile and tries again after this. */
const FULL_RETRY_AFTER_SECONDS = 60;

/** The ticket route: behind the signed-in hook like every route that takes a bearer token. */
export async function syncEventsTicketRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  const key = syncEventsTicketKey(ctx.config.jwtSecret);
  const lifetime = ctx.config.syncEventsTicketSeconds;
  app.post(
    '/sync/events/ticket',
    { schema: { response: { 200: SyncEventsTicketResponse } } },
    async (request, reply) => {
      const claims: TokenClaims = { sub: request.userId, sid: request.sessionId };
      const ticket = app.jwt.sign(claims, { key, expiresIn: lifetime, aud: SYNC_EVENTS_TICKET_AUDIENCE });
      return reply.header('cache-control', 'no-store').send({ ticket, expiresInSeconds: lifetime });
    },
  );
}

/** The stream itself: public in the route table, as it takes a ticket as well as the Authorization header. */
export async function syncEventsRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  const key = syncEventsTicketKey(ctx.config.jwtSecret);

  /**
   * Who the stream is for: the bearer token's session, else the ticket's. The session checks are awaited:
   * they are async where the database is (issue 15's query layer), and awaiting a plain answer costs nothing.
   */
  async function streamOwner(request: FastifyRequest, ticket: string | undefined): Promise<TokenClaims> {
    if (request.headers.authorization !== undefined) {
      // The same check as every signed-in route: signature, expiry, session not revoked.
      if ((await app.signedInUser(request)) === null) throw unauthorized(SERVER_ERRORS.unauthorized);
      return { sub: request.userId, sid: request.sessionId };
    }
    if (!ticket) throw unauthorized(SERVER_ERRORS.unauthorized);
    let claims: TokenClaims;
    try {
      claims = app.jwt.verify<TokenClaims>(ticket, {
        key,
        algorithms: ['HS256'],
        allowedAud: SYNC_EVENTS_TICKET_AUDIENCE,
        // fast-jwt checks an audience or expiry only when the token has one: a ticket must have both.
        requiredClaims: ['aud', 'exp'],
      });
    } catch {
      throw unauthorized(SERVER_ERRORS.syncEventsTicketInvalid);
    }
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string')
      throw unauthorized(SERVER_ERRORS.syncEventsTicketInvalid);
    // A ticket lives no longer than its session: signed out since, it opens nothing.
    if (!(await isSessionActive(ctx.db, claims))) throw unauthorized(SERVER_ERRORS.unauthorized);
    return claims;
  }

  app.get(
    '/sync/events',
    // A HEAD would open a stream with no body to carry it.
    { schema: { querystring: SyncEventsQuery }, exposeHeadRoute: false },
    async (request, reply) => {
      const owner = await streamOwner(request, request.query.ticket);
      const { streams } = ctx.live;
      if (!streams.hasRoomFor(owner.sub))
        throw new HttpError(503, SERVER_ERRORS.serverBusy, {
          'retry-after': String(FULL_RETRY_AFTER_SECONDS),
        });
      // The stream outlives this handler: Fastify hands the response over and writes nothing more to it.
      reply.hijack();
      streams.open(reply.raw, reply.getHeaders(), owner.sub, owner.sid);
    },
  );
}
