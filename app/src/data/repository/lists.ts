// The reading list calls of spec section 7. The public view of a shared list needs the server.
import {
  FIELD_ERRORS,
  isFilledIn,
  listArticleKey,
  newId,
  SERVER_ERRORS,
  type AddListArticleBody,
  type CreateListBody,
  type ListResponse,
  type PublicListResponse,
  type ReorderListBody,
  type UpdateListBody,
} from '@lectern/shared-schema';
import { ApiError } from '../api/http-client';
import { notFound } from '../reads/not-found';
import { getList, listLists } from '../reads/list-reads';
import { write, type RepositoryContext } from './context';

export function createListsApi(ctx: RepositoryContext) {
  const { db, http } = ctx;

  async function requireList(id: string) {
    if (!(await db.lists.get(id))) throw notFound(SERVER_ERRORS.listNotFound);
  }

  /** Spec section 5: a list's name is required, refused on the device as the server refuses it. */
  function requireName(name: string | undefined) {
    if (name !== undefined && !isFilledIn(name)) throw new ApiError(400, FIELD_ERRORS.name);
  }

  async function listOnly(id: string): Promise<ListResponse> {
    const { list } = await getList(db, id);
    return { list };
  }

  return {
    list: () => listLists(db),
    get: (id: string) => getList(db, id),
    getPublic: (shareId: string) =>
      http.get<PublicListResponse>(`/lists/public/${encodeURIComponent(shareId)}`),

    async create(body: CreateListBody): Promise<ListResponse> {
      requireName(body.name);
      const id = body.id ?? newId();
      await write(ctx, { kind: 'createList', body: { ...body, id } });
      return listOnly(id);
    },

    async update(id: string, body: UpdateListBody): Promise<ListResponse> {
      requireName(body.name);
      await requireList(id);
      await write(ctx, { kind: 'updateList', id, body });
      return listOnly(id);
    },

    async remove(id: string): Promise<void> {
      await requireList(id);
      await write(ctx, { kind: 'deleteList', id });
    },

    async addArticle(id: string, body: AddListArticleBody): Promise<ListResponse> {
      await requireList(id);
      if (!(await db.articles.get(body.articleId))) throw notFound(SERVER_ERRORS.articleNotFound);
      await write(ctx, { kind: 'addListArticle', listId: id, body });
      return listOnly(id);
    },

    async removeArticle(id: string, articleId: string): Promise<ListResponse> {
      await requireList(id);
      if (!(await db.list_articles.get(listArticleKey(id, articleId))))
        throw notFound(SERVER_ERRORS.articleNotFound);
      await write(ctx, { kind: 'removeListArticle', listId: id, articleId });
      return listOnly(id);
    },

    /**
     * POST /lists/{id}/share-link/rotate: a new share link, the old one stops working. Needs the server (it
     * makes the new id), so it is not queued: offline it fails and nothing changes.
     */
    async rotateShareLink(id: string): Promise<ListResponse> {
      await requireList(id);
      const { list } = await http.request<ListResponse>(
        'POST',
        `/lists/${encodeURIComponent(id)}/share-link/rotate`,
      );
      // Only the link: any write to the list still queued on this device keeps showing.
      await db.lists.update(id, { share_id: list.share_id });
      return listOnly(id);
    },

    /** PUT /lists/{id}/reorder with `{articles}` in the new order; answers the list with its articles. */
    async reorder(id: string, body: ReorderListBody) {
      await requireList(id);
      await write(ctx, { kind: 'reorderList', listId: id, body });
      return getList(db, id);
    },
  };
}

export type ListsApi = ReturnType<typeof createListsApi>;
