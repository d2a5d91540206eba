// /api/articles: thin translation of HTTP into the articles service.
import {
  ArticleResponse,
  ArticlesQuery,
  ArticleTagParams,
  AttachTagBody,
  CreateArticleBody,
  IdParam,
  MetadataQuery,
  MetadataResponse,
  PAGE_HTML_MAX_BYTES,
  SearchQuery,
  UpdateArticleBody,
} from '@lectern/shared-schema';
import {
  attachTag,
  createArticle,
  detachTag,
  fetchMetadata,
  readArticleListAnswer,
  searchArticleCardsOfSession,
  updateArticle,
} from '../services/articles';
import { cardsAnswer } from '../services/article-cards';
import { readArticleAnswer } from '../services/article-rows';
import { deleteArticleAndFiles } from '../services/deletions';
import type { RouteOptions, TypedFastify } from './types';

/**
 * A save may carry the page's HTML (PAGE_HTML_MAX_BYTES): JSON escaping (quotes, newlines) can nearly
 * double it, so the body may be larger; past the page's own limit the service answers 413 in words.
 */
const SAVE_BODY_LIMIT = 2 * PAGE_HTML_MAX_BYTES + 64 * 1024;

export async function articleRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  const { db } = ctx;

  app.get(
    '/articles',
    // The answer (ArticleListResponse) is JSON already, made of the articles' stored cards
    // (services/article-cards.ts): Fastify's serializer has nothing to do.
    { schema: { querystring: ArticlesQuery } },
    async (request, reply) => {
      const answer = await readArticleListAnswer(db, request.userId, request.query);
      return reply.type('application/json; charset=utf-8').send(answer);
    },
  );

  app.get(
    '/articles/search',
    // The answer (ArticleSearchResponse) is made of the articles' stored cards, as the list's. The session is
    // checked in the same query as the cards: one round trip.
    { schema: { querystring: SearchQuery }, config: { sessionCheckedByRoute: true } },
    async (request, reply) => {
      const claims = { sub: request.userId, sid: request.sessionId };
      const cards = await searchArticleCardsOfSession(db, claims, request.query.q);
      return reply.type('application/json; charset=utf-8').send(cardsAnswer('articles', cards, '}'));
    },
  );

  app.get(
    '/articles/metadata/fetch',
    { schema: { querystring: MetadataQuery, response: { 200: MetadataResponse } } },
    async (request) => ({
      metadata: await fetchMetadata(ctx, request.userId, request.query.url),
    }),
  );

  app.get(
    '/articles/:id',
    // The session is checked in the same query as the answer (services/article-rows.ts): one round trip.
    { schema: { params: IdParam }, config: { sessionCheckedByRoute: true } },
    async (request, reply) => {
      const claims = { sub: request.userId, sid: request.sessionId };
      // JSON already in the answer's shape: Fastify's serializer has nothing to do.
      const answer = await readArticleAnswer(ctx, claims, request.params.id);
      return reply.type('application/json; charset=utf-8').send(answer);
    },
  );

  app.post(
    '/articles',
    {
      bodyLimit: SAVE_BODY_LIMIT,
      schema: { body: CreateArticleBody, response: { 200: ArticleResponse, 201: ArticleResponse } },
    },
    async (request, reply) => {
      const { article, alreadySaved } = await createArticle(ctx, request.userId, request.body);
      // 200: the address was in the library already and that article answers (not a new one).
      return reply.code(alreadySaved ? 200 : 201).send({ article });
    },
  );

  app.put(
    '/articles/:id',
    { schema: { params: IdParam, body: UpdateArticleBody, response: { 200: ArticleResponse } } },
    async (request) => ({
      article: await updateArticle(db, request.userId, request.params.id, request.body),
    }),
  );

  app.delete('/articles/:id', { schema: { params: IdParam } }, async (request, reply) => {
    await deleteArticleAndFiles(ctx, request.userId, request.params.id);
    return reply.code(204).send();
  });

  app.post(
    '/articles/:id/tags',
    { schema: { params: IdParam, body: AttachTagBody, response: { 200: ArticleResponse } } },
    async (request) => ({
      article: await attachTag(db, request.userId, request.params.id, request.body.tagId),
    }),
  );

  app.delete(
    '/articles/:id/tags/:tagId',
    { schema: { params: ArticleTagParams, response: { 200: ArticleResponse } } },
    async (request) => ({
      article: await detachTag(db, request.userId, request.params.id, request.params.tagId),
    }),
  );
}
