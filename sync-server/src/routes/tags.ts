// /api/tags
import {
  CreateTagBody,
  IdParam,
  TagArticlesResponse,
  TagResponse,
  TagsResponse,
  UpdateTagBody,
} from '@lectern/shared-schema';
import { createTag, deleteTag, listTags, renameTag, tagArticles } from '../services/tags';
import type { RouteOptions, TypedFastify } from './types';

export async function tagRoutes(app: TypedFastify, { ctx: { db } }: RouteOptions) {
  app.get('/tags', { schema: { response: { 200: TagsResponse } } }, async (request) => ({
    tags: await listTags(db, request.userId),
  }));

  app.post(
    '/tags',
    { schema: { body: CreateTagBody, response: { 201: TagResponse } } },
    async (request, reply) =>
      reply.code(201).send({ tag: await createTag(db, request.userId, request.body) }),
  );

  app.put(
    '/tags/:id',
    { schema: { params: IdParam, body: UpdateTagBody, response: { 200: TagResponse } } },
    async (request) => ({
      tag: await renameTag(db, request.userId, request.params.id, request.body.name),
    }),
  );

  app.delete('/tags/:id', { schema: { params: IdParam } }, async (request, reply) => {
    await deleteTag(db, request.userId, request.params.id);
    return reply.code(204).send();
  });

  app.get(
    '/tags/:id/articles',
    { schema: { params: IdParam, response: { 200: TagArticlesResponse } } },
    async (request) => await tagArticles(db, request.userId, request.params.id),
  );
}
