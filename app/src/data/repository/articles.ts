// The article calls of spec section 7. Reads answer from the device; writes apply at once and queue
// their REST call, except saving a URL or a screenshot while online, which asks the server first so that
// spec section 8's errors show.
import {
  checkArticleUrl,
  newId,
  SERVER_ERRORS,
  type ArticleResponse,
  type ArticlesQuery,
  type AttachTagBody,
  type CreateArticleBody,
  type MetadataResponse,
  type UpdateArticleBody,
} from '@lectern/shared-schema';
import { ApiError, NetworkError, type RequestOptions } from '../api/http-client';
import { putArticles, refreshHighlightCounts } from '../db/local-store';
import { statsOf } from '../db/article-counts';
import { fetchBodies, storeBodies } from '../offline/body-answers';
import { dropEntry, retryEntry, saveEntryOf } from '../outbox/outbox';
import type { Operation } from '../outbox/operations';
import type { ArticleOrder } from '../reads/article-order';
import { getArticle, listArticles, searchArticles, type LocalArticle } from '../reads/article-reads';
import { idsInList, listedIds, pageArticles } from '../reads/article-pages';
import { createReadAhead } from '../reads/read-ahead';
import { notFound } from '../reads/not-found';
import { saveErrorMessage } from '../sync/save-errors';
import { write, type RepositoryContext } from './context';
import { SaveArticleError } from './save-article-error';
import { tagCreatesFor } from './tags';

/** A save's answer; alreadySaved when the library held the address already (the server's 200). */
export interface SavedArticle {
  article: LocalArticle;
  /** The screen says "Already in your library" (MESSAGES.alreadyInLibrary) instead of "Saved". */
  alreadySaved: boolean;
}

export interface ScreenshotInput {
  image: Blob;
  name?: string;
  tags?: string[];
}

export function createArticlesApi(ctx: RepositoryContext) {
  const { db, http, sync } = ctx;
  const readAhead = createReadAhead(db);

  async function requireArticle(id: string) {
    if (!(await db.articles.get(id))) throw notFound(SERVER_ERRORS.articleNotFound);
  }

  async function keepServerArticle({ article }: ArticleResponse): Promise<ArticleResponse> {
    // The answer may be an article the device already shows (a save of a known address): same row, updated.
    await db.transaction('rw', db.dataTables, async () => {
      await putArticles(db, [article]);
      await refreshHighlightCounts(db, [article.id]);
    });
    // The server may have made tags for it: fetch them soon.
    sync.requestSync(0);
    return { article };
  }

  /**
   * Ids of online saves whose answer never came: the server may have applied them, so saving the same URL
   * again reuses the id and the server answers the article instead of making a second one.
   */
  const unansweredSaves = new Map<string, string>();

  /** POSTs a save; the server answers 201 for a new article and 200 for one the library already held. */
  async function postSave(path: string, options: RequestOptions): Promise<SavedArticle> {
    const response = await http.send('POST', path, options);
    const { article } = await keepServerArticle((await response.json()) as ArticleResponse);
    return { article, alreadySaved: response.status === 200 };
  }

  async function saveOnline(send: () => Promise<SavedArticle>): Promise<SavedArticle> {
    try {
      return await send();
    } catch (error) {
      if (error instanceof ApiError || error instanceof NetworkError) {
        throw new SaveArticleError(saveErrorMessage(error), error instanceof ApiError ? error.status : 0);
      }
      throw error;
    }
  }

  async function saveOffline(ops: Operation[], id: string): Promise<SavedArticle> {
    await write(ctx, ...ops);
    return { ...(await getArticle(db, id)), alreadySaved: false };
  }

  return {
    list: (query: ArticlesQuery = {}, order?: ArticleOrder) => listArticles(db, query, order),
    /** The dashboard's list from `start` to `end` (excluded), read from its index, and the list's total. */
    page: (query: ArticlesQuery, order: ArticleOrder, start: number, end: number) =>
      pageArticles(db, query, order, start, end),
    /** Reads a list's rows now for the screen about to show them (the app's start, for the dashboard). */
    readAhead: readAhead.start,
    /** That read, once, if it was of exactly this list and range and started a moment ago. */
    takeReadAhead: readAhead.take,
    /** Every id of the list, in order (Select All). */
    listedIds: (query: ArticlesQuery, order: ArticleOrder) => listedIds(db, query, order),
    /** Which of `ids` the list holds. */
    idsInList: (query: ArticlesQuery, ids: readonly string[]) => idsInList(db, query, ids),
    get: (id: string) => getArticle(db, id),
    /** The stats of spec section 3 from the counts kept with each write: one row read, whatever the size. */
    stats: async () => statsOf(await db.articleCounts()),

    /**
     * The body of an article that came as a card and whose body isn't on the device yet (`bodyMissing`):
     * fetched now and kept, so the reader shows it (live) and it reads offline from then on. Answers
     * whether the server had it; throws NetworkError offline.
     */
    async fetchBody(id: string): Promise<boolean> {
      const { bodies } = await fetchBodies(http, [id]);
      await storeBodies(db, bodies);
      return bodies.length > 0;
    },

    search: (q: string) => searchArticles(db, ctx.articleSearch, q),
    /** Reads the stored search index and takes in what changed since, in idle moments: before the first query. */
    prepareSearch: () => ctx.articleSearch.prepare(),
    /** What the device's search index has done: read back, indexed, written out, caught up (tests, the bench). */
    searchIndexStats: ctx.articleSearch.stats,

    /**
     * POST /articles: online, the server fetches it (or extracts the `html` sent) now; offline, a placeholder
     * that sync completes.
     */
    async create(body: CreateArticleBody): Promise<SavedArticle> {
      const check = checkArticleUrl(body.url);
      if (!check.ok) throw new SaveArticleError(check.error, 0);
      const id = body.id ?? unansweredSaves.get(check.url) ?? newId();
      const payload: CreateArticleBody & { id: string } = { url: check.url, id };
      if (body.tags && body.tags.length > 0) payload.tags = body.tags;
      // The page as the browser showed it (the bookmarklet's save): kept in the outbox with the save, so a
      // save made offline is extracted from it when it syncs, not from a fetch that may see another page.
      if (body.html !== undefined) payload.html = body.html;
      if (sync.isOnline()) {
        unansweredSaves.set(check.url, id);
        try {
          const saved = await saveOnline(() => postSave('/articles', { body: payload }));
          unansweredSaves.delete(check.url);
          return saved;
        } catch (error) {
          if (!(error instanceof SaveArticleError && error.status === 0)) unansweredSaves.delete(check.url);
          throw error;
        }
      }
      const tagOps = await tagCreatesFor(ctx, payload.tags);
      return saveOffline([...tagOps, { kind: 'createArticle', body: payload }], id);
    },

    /** POST /articles/screenshot: offline, the image waits in the database until it can be uploaded. */
    async createScreenshot({ image, name = 'screenshot', tags }: ScreenshotInput): Promise<SavedArticle> {
      const id = newId();
      const wanted = tags && tags.length > 0 ? tags : undefined;
      if (sync.isOnline()) {
        const form = new FormData();
        form.append('id', id);
        if (wanted) form.append('tags', wanted.join(','));
        form.append('screenshot', image, name);
        return saveOnline(() => postSave('/articles/screenshot', { form }));
      }
      const bytes = await image.arrayBuffer();
      await db.screenshots.put({ article_id: id, bytes, type: image.type, name });
      const tagOps = await tagCreatesFor(ctx, wanted);
      return saveOffline([...tagOps, { kind: 'createScreenshot', id, tags: wanted }], id);
    },

    /** The image of a screenshot not uploaded yet, to show in its place. */
    async localScreenshot(articleId: string): Promise<Blob | null> {
      const row = await db.screenshots.get(articleId);
      return row ? new Blob([row.bytes], { type: row.type }) : null;
    },

    /**
     * A screenshot article's image: the copy kept on the device while it waits to upload, else the server's,
     * fetched with the bearer token (an <img> can't send it). Null when neither can be had (offline).
     */
    async screenshotImage(articleId: string): Promise<Blob | null> {
      const local = await db.screenshots.get(articleId);
      if (local) return new Blob([local.bytes], { type: local.type });
      try {
        // Never into the browser's HTTP cache: logout can't empty that, and the server marks it immutable.
        const response = await http.send('GET', `/articles/${encodeURIComponent(articleId)}/screenshot`, {
          cache: 'no-store',
        });
        return await response.blob();
      } catch {
        return null;
      }
    },

    /**
     * POST /articles/{id}/fetch: Retry of an imported article whose page could not be fetched; it goes back
     * to pending and the feed brings the fetched page. Needs the server (a NetworkError offline).
     */
    async retryFetch(id: string): Promise<ArticleResponse> {
      await requireArticle(id);
      const path = `/articles/${encodeURIComponent(id)}/fetch`;
      return keepServerArticle(await http.request<ArticleResponse>('POST', path));
    },

    /** Retry of a refused save. */
    async retrySave(articleId: string): Promise<void> {
      const entry = await saveEntryOf(db, articleId);
      if (entry?.seq === undefined) return;
      await retryEntry(db, entry.seq);
      sync.requestSync(0);
    },

    async update(id: string, body: UpdateArticleBody): Promise<{ article: LocalArticle }> {
      await requireArticle(id);
      await write(ctx, { kind: 'updateArticle', id, body });
      return getArticle(db, id);
    },

    /** DELETE /articles/{id}; deleting a refused save just drops it, the server never had it. */
    async remove(id: string): Promise<void> {
      await requireArticle(id);
      const save = await saveEntryOf(db, id);
      if (save?.status === 'failed' && save.seq !== undefined) return dropEntry(db, save.seq);
      await write(ctx, { kind: 'deleteArticle', id });
    },

    async addTag(id: string, { tagId }: AttachTagBody): Promise<ArticleResponse> {
      await requireArticle(id);
      if (!(await db.tags.get(tagId))) throw notFound(SERVER_ERRORS.tagNotFound);
      await write(ctx, { kind: 'attachTag', articleId: id, tagId });
      return getArticle(db, id);
    },

    async removeTag(id: string, tagId: string): Promise<ArticleResponse> {
      await requireArticle(id);
      if (!(await db.tags.get(tagId))) throw notFound(SERVER_ERRORS.tagNotFound);
      await write(ctx, { kind: 'detachTag', articleId: id, tagId });
      return getArticle(db, id);
    },

    /** GET /articles/metadata/fetch: needs the server. */
    fetchMetadata: (url: string) => http.get<MetadataResponse>('/articles/metadata/fetch', { url }),
  };
}

export type ArticlesApi = ReturnType<typeof createArticlesApi>;
