// /api/lists, and the public view of a shared list.
import {
  AddListArticleBody,
  CreateListBody,
  IdParam,
  ListArticleParams,
  ListResponse,
  ListsResponse,
  ListWithArticlesResponse,
  PublicListResponse,
  ReorderListBody,
  ShareIdParam,
  UpdateListBody,
} from '@lectern/shared-schema';
import {
  addArticleToList,
  createList,
  deleteList,
  getListWithArticles,
  getPublicList,
  listLists,
  removeArticleFromList,
  reorderList,
  rotateShareLink,
  updateList,
} from '../services/lists';
import type { RouteOptions, TypedFastify } from './types';

/** Needs no sign-in: anyone with the link may read a public list. */
export async function publicListRoutes(app: TypedFastify, { ctx: { db } }: RouteOptions) {
  app.get(
    '/lists/public/:shareId',
    { schema: { params: ShareIdParam, response: { 200: PublicListResponse } } },
    async (request) => await getPublicList(db, request.params.shareId),
  );
}

export async function listRoutes(app: TypedFastify, { ctx: { db } }: RouteOptions) {
  app.get('/lists', { schema: { response: { 200: ListsResponse } } }, async (request) => ({
    lists: await listLists(db, request.userId),
  }));

  app.get(
    '/lists/:id',
    { schema: { params: IdParam, response: { 200: ListWithArticlesResponse } } },
    async (request) => await getListWithArticles(db, request.userId, request.params.id),
  );

  app.post(
    '/lists',
    { schema: { body: CreateListBody, response: { 201: ListResponse } } },
    async (request, reply) =>
      reply.code(201).send({ list: await createList(db, request.userId, request.body) }),
  );

  app.put(
    '/lists/:id',
    { schema: { params: IdParam, body: UpdateListBody, response: { 200: ListResponse } } },
    async (request) => ({
      list: await updateList(db, request.userId, request.params.id, request.body),
    }),
  );

  app.delete('/lists/:id', { schema: { params: IdParam } }, async (request, reply) => {
    await deleteList(db, request.userId, request.params.id);
    return reply.code(204).send();
  });

  app.post(
    '/lists/:id/articles',
    { schema: { params: IdParam, body: AddListArticleBody, response: { 200: ListResponse } } },
    async (request) => ({
      list: await addArticleToList(db, request.userId, request.params.id, request.body),
    }),
  );

  app.delete(
    '/lists/:id/articles/:articleId',
    { schema: { params: ListArticleParams, response: { 200: ListResponse } } },
    async (request) => ({
      list: await removeArticleFromList(db, request.userId, request.params.id, request.params.articleId),
    }),
  );

  app.post(
    '/lists/:id/share-link/rotate',
    { schema: { params: IdParam, response: { 200: ListResponse } } },
    async (request) => ({
      list: await rotateShareLink(db, request.userId, request.params.id),
    }),
  );

  app.put(
    '/lists/:id/reorder',
    { schema: { params: IdParam, body: ReorderListBody, response: { 200: ListWithArticlesResponse } } },
    async (request) => await reorderList(db, request.userId, request.params.id, request.body.articles),
  );
}
