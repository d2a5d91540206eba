// POST /api/articles/bodies: a new device's article bodies, a batch at a time (services/article-bodies.ts).
import { BODIES_MAX_IDS, BodiesBody } from '@lectern/shared-schema';
import { readArticleBodies } from '../services/article-bodies';
import type { RouteOptions, TypedFastify } from './types';

/** BODIES_MAX_IDS ids of 64 characters, quoted, with room to spare; anything larger is refused with 413. */
const BODIES_REQUEST_LIMIT = BODIES_MAX_IDS * 80 + 1024;

export async function articleBodyRoutes(app: TypedFastify, { ctx: { db } }: RouteOptions) {
  app.post(
    '/articles/bodies',
    { bodyLimit: BODIES_REQUEST_LIMIT, schema: { body: BodiesBody } },
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(await readArticleBodies(db, request.userId, request.body.ids)),
  );
}
