// GET /api/sync/changes: the change feed every device pulls (DESIGN.md section 3).
import { CHANGES_MAX_LIMIT, ChangesQuery, SERVER_ERRORS } from '@lectern/shared-schema';
import { badRequest } from '../services/errors';
import { readChangesPage } from '../services/sync';
import type { RouteOptions, TypedFastify } from './types';

export async function syncRoutes(app: TypedFastify, { ctx: { db } }: RouteOptions) {
  app.get('/sync/changes', { schema: { querystring: ChangesQuery } }, async (request, reply) => {
    // Cards are a kilobyte each: only a page of cards may be as long as CARDS_MAX_LIMIT.
    if (!request.query.cards && (request.query.limit ?? 0) > CHANGES_MAX_LIMIT)
      throw badRequest(SERVER_ERRORS.changesLimitTooLarge);
    return reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        await readChangesPage(
          db,
          request.userId,
          request.query.since,
          request.query.limit,
          request.query.cards,
        ),
      );
  });
}
