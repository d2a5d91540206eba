// /api/highlights
import {
  ArticleIdParam,
  CreateHighlightBody,
  HighlightResponse,
  HighlightsResponse,
  HighlightStatsResponse,
  HighlightsWithStatsResponse,
  IdParam,
  RECENT_HIGHLIGHTS_DEFAULT_LIMIT,
  RecentHighlightsQuery,
  SearchQuery,
  UpdateHighlightBody,
} from '@lectern/shared-schema';
import {
  articleHighlights,
  createHighlight,
  deleteHighlight,
  getHighlight,
  highlightStats,
  listHighlights,
  recentHighlights,
  searchHighlightsOfSession,
  updateHighlight,
} from '../services/highlights';
import type { RouteOptions, TypedFastify } from './types';

export async function highlightRoutes(app: TypedFastify, { ctx: { db } }: RouteOptions) {
  app.get(
    '/highlights',
    { schema: { response: { 200: HighlightsWithStatsResponse } } },
    async (request) => await listHighlights(db, request.userId),
  );

  app.get(
    '/highlights/article/:articleId',
    { schema: { params: ArticleIdParam, response: { 200: HighlightsResponse } } },
    async (request) => ({
      highlights: await articleHighlights(db, request.userId, request.params.articleId),
    }),
  );

  app.get(
    '/highlights/recent',
    { schema: { querystring: RecentHighlightsQuery, response: { 200: HighlightsResponse } } },
    async (request) => ({
      highlights: await recentHighlights(
        db,
        request.userId,
        request.query.limit ?? RECENT_HIGHLIGHTS_DEFAULT_LIMIT,
      ),
    }),
  );

  app.get(
    '/highlights/stats',
    { schema: { response: { 200: HighlightStatsResponse } } },
    async (request) => ({
      stats: await highlightStats(db, request.userId),
    }),
  );

  app.get(
    '/highlights/search',
    // The session is checked in the query that reads the highlights: one round trip fewer.
    {
      schema: { querystring: SearchQuery, response: { 200: HighlightsResponse } },
      config: { sessionCheckedByRoute: true },
    },
    async (request) => ({
      highlights: await searchHighlightsOfSession(
        db,
        { sub: request.userId, sid: request.sessionId },
        request.query.q,
      ),
    }),
  );

  app.get(
    '/highlights/:id',
    { schema: { params: IdParam, response: { 200: HighlightResponse } } },
    async (request) => ({
      highlight: await getHighlight(db, request.userId, request.params.id),
    }),
  );

  app.post(
    '/highlights',
    { schema: { body: CreateHighlightBody, response: { 201: HighlightResponse } } },
    async (request, reply) =>
      reply.code(201).send({ highlight: await createHighlight(db, request.userId, request.body) }),
  );

  app.put(
    '/highlights/:id',
    { schema: { params: IdParam, body: UpdateHighlightBody, response: { 200: HighlightResponse } } },
    async (request) => ({
      highlight: await updateHighlight(db, request.userId, request.params.id, request.body),
    }),
  );

  app.delete('/highlights/:id', { schema: { params: IdParam } }, async (request, reply) => {
    await deleteHighlight(db, request.userId, request.params.id);
    return reply.code(204).send();
  });
}
