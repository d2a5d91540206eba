// The highlight calls of spec section 7.
import {
  FIELD_ERRORS,
  isHighlightSelection,
  newId,
  SERVER_ERRORS,
  type CreateHighlightBody,
  type HighlightResponse,
  type UpdateHighlightBody,
} from '@lectern/shared-schema';
import {
  articleHighlights,
  getHighlight,
  highlightStats,
  listHighlights,
  recentHighlights,
  searchHighlights,
} from '../reads/highlight-reads';
import { ApiError } from '../api/http-client';
import { notFound } from '../reads/not-found';
import { write, type RepositoryContext } from './context';

export function createHighlightsApi(ctx: RepositoryContext) {
  const { db } = ctx;

  async function requireHighlight(id: string) {
    if (!(await db.highlights.get(id))) throw notFound(SERVER_ERRORS.highlightNotFound);
  }

  /** Spec section 5's rule, refused on the device as the server refuses it (400, same text). */
  function requireHighlightText(text: string | undefined) {
    if (text !== undefined && !isHighlightSelection(text))
      throw new ApiError(400, FIELD_ERRORS.highlightedText);
  }

  return {
    list: () => listHighlights(db),
    byArticle: (articleId: string) => articleHighlights(db, articleId),
    get: (id: string) => getHighlight(db, id),
    recent: (limit?: number) => recentHighlights(db, limit),
    stats: () => highlightStats(db),
    search: (q: string) => searchHighlights(db, ctx.highlightSearch, q),

    async create(body: CreateHighlightBody): Promise<HighlightResponse> {
      requireHighlightText(body.highlightedText);
      if (!(await db.articles.get(body.articleId))) throw notFound(SERVER_ERRORS.articleNotFound);
      const id = body.id ?? newId();
      await write(ctx, { kind: 'createHighlight', body: { ...body, id } });
      return getHighlight(db, id);
    },

    async update(id: string, body: UpdateHighlightBody): Promise<HighlightResponse> {
      requireHighlightText(body.highlightedText);
      await requireHighlight(id);
      await write(ctx, { kind: 'updateHighlight', id, body });
      return getHighlight(db, id);
    },

    async remove(id: string): Promise<void> {
      await requireHighlight(id);
      await write(ctx, { kind: 'deleteHighlight', id });
    },
  };
}

export type HighlightsApi = ReturnType<typeof createHighlightsApi>;
