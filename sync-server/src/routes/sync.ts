// GET /api/sync/changes: the change feed every device pulls (DESIGN.md section 3).
import { ChangesQuery } from '@lectern/shared-schema';
import { readChangesPage } from '../services/sync';
import type { RouteOptions, TypedFastify } from './types';

export async function syncRoutes(app: TypedFastify, { ctx: { db } }: RouteOptions) {
  app.get('/sync/changes', { schema: { querystring: ChangesQuery } }, async (request, reply) =>
    reply
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
      ),
  );
}
