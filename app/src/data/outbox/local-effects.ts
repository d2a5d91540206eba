// What each write does to the device's tables, so the screen shows it at once. Every effect is idempotent
// and skips what no longer exists, because it is applied again on top of each pull until the server has it.
import {
  emptyToNull,
  HIGHLIGHT_COLOR,
  listArticleKey,
  mergeOrder,
  normalizeTagName,
  orderWithArticle,
  SCREENSHOT_URL_SCHEME,
  screenshotTitle,
} from '@lectern/shared-schema';
import type { ArticleSummary } from '@lectern/shared-schema';
import { putBodies } from '../db/bodies';
import type { LecternDb } from '../db/lectern-db';
import {
  deleteArticleLocally,
  orderedPlaces,
  putHighlights,
  refreshHighlightCounts,
  renameTagEverywhere,
  renumberList,
  rewriteArticles,
  tagKey,
} from '../db/local-store';
import type { ArticleRow } from '../db/rows';
import type { Operation } from './operations';

/** A new article as the device shows it until the server has it: nothing read, nothing extracted yet. */
export function placeholderArticle(
  fields: Pick<ArticleSummary, 'id' | 'url' | 'title' | 'article_type' | 'tags'>,
  at: string,
) {
  const article: ArticleSummary = {
    ...fields,
    description: null,
    author: null,
    image_url: null,
    screenshot_url: null,
    excerpt: null,
    published_date: null,
    site_name: null,
    language: null,
    reading_time: null,
    reading_progress: 0,
    is_read: false,
    is_favorite: false,
    is_archived: false,
    highlights_count: 0,
    created_at: at,
    updated_at: at,
  };
  return article;
}

/** Tag names as the server will store them: an existing tag's spelling wins over the typed one. */
async function resolveTagNames(db: LecternDb, names: readonly string[] = []): Promise<string[]> {
  const resolved = new Map<string, string>();
  for (const raw of names) {
    const name = normalizeTagName(raw);
    const key = tagKey(name);
    if (resolved.has(key)) continue;
    const existing = await db.tags.where('name_key').equals(key).first();
    resolved.set(key, existing?.name ?? name);
  }
  return [...resolved.values()];
}

async function insertPlaceholder(db: LecternDb, article: ArticleSummary): Promise<void> {
  if (await db.articles.get(article.id)) return;
  await rewriteArticles(db, [{ ...article, tag_keys: [], rev: 0 }]);
  await putBodies(db, [{ id: article.id, content: null }]);
}

async function updateArticleRow(
  db: LecternDb,
  id: string,
  change: (row: ArticleRow) => ArticleRow | undefined,
) {
  const row = await db.articles.get(id);
  const changed = row && change(row);
  if (changed) await rewriteArticles(db, [changed]);
}

/** Applies one write to the device's tables; `at` is when the user made it. */
export async function applyOperation(db: LecternDb, op: Operation, at: string): Promise<void> {
  switch (op.kind) {
    case 'createArticle': {
      const { id, url } = op.body;
      const tags = await resolveTagNames(db, op.body.tags);
      return insertPlaceholder(
        db,
        placeholderArticle({ id, url, title: url, article_type: 'web', tags }, at),
      );
    }
    case 'createScreenshot': {
      const tags = await resolveTagNames(db, op.tags);
      const fields = {
        id: op.id,
        url: `${SCREENSHOT_URL_SCHEME}${op.id}`,
        // No OCR text yet: the title the server gives a screenshot without any.
        title: screenshotTitle(),
      };
      return insertPlaceholder(db, placeholderArticle({ ...fields, article_type: 'screenshot', tags }, at));
    }
    case 'updateArticle':
      return updateArticleRow(db, op.id, (row) => {
        const { isRead, isFavorite, isArchived, readingProgress } = op.body;
        if ([isRead, isFavorite, isArchived, readingProgress].every((value) => value === undefined))
          return undefined;
        return {
          ...row,
          is_read: isRead ?? row.is_read,
          is_favorite: isFavorite ?? row.is_favorite,
          is_archived: isArchived ?? row.is_archived,
          reading_progress: readingProgress ?? row.reading_progress,
          updated_at: at,
        };
      });
    case 'deleteArticle':
      return deleteArticleLocally(db, op.id);
    case 'attachTag':
    case 'detachTag': {
      const tag = await db.tags.get(op.tagId);
      if (!tag) return;
      return updateArticleRow(db, op.articleId, (row) => {
        const others = row.tags.filter((name) => tagKey(name) !== tag.name_key);
        return { ...row, tags: op.kind === 'attachTag' ? [...others, tag.name] : others, updated_at: at };
      });
    }
    case 'createTag': {
      if (await db.tags.get(op.body.id)) return;
      const name = normalizeTagName(op.body.name);
      await db.tags.put({ id: op.body.id, name, name_key: tagKey(name), created_at: at });
      return;
    }
    case 'renameTag': {
      const tag = await db.tags.get(op.id);
      if (!tag) return;
      const name = normalizeTagName(op.body.name);
      await db.tags.put({ ...tag, name, name_key: tagKey(name) });
      return renameTagEverywhere(db, tag.name_key, name);
    }
    case 'deleteTag': {
      const tag = await db.tags.get(op.id);
      if (!tag) return;
      await db.tags.delete(op.id);
      return renameTagEverywhere(db, tag.name_key, null);
    }
    case 'createList': {
      if (await db.lists.get(op.body.id)) return;
      await db.lists.put({
        id: op.body.id,
        name: op.body.name.trim(),
        description: emptyToNull(op.body.description),
        is_public: op.body.isPublic !== false,
        // The server picks the share id; until then the list can't be shared.
        share_id: '',
        created_at: at,
        updated_at: at,
      });
      return;
    }
    case 'updateList': {
      const list = await db.lists.get(op.id);
      const { name, description, isPublic } = op.body;
      if (!list || (name === undefined && description === undefined && isPublic === undefined)) return;
      await db.lists.put({
        ...list,
        name: name === undefined ? list.name : name.trim(),
        description: description === undefined ? list.description : emptyToNull(description),
        is_public: isPublic ?? list.is_public,
        updated_at: at,
      });
      return;
    }
    case 'deleteList':
      await db.lists.delete(op.id);
      await db.list_articles.where('list_id').equals(op.id).delete();
      return;
    case 'addListArticle': {
      const { articleId } = op.body;
      const list = await db.lists.get(op.listId);
      if (!list || !(await db.articles.get(articleId))) return;
      const current = (await orderedPlaces(db, op.listId)).map((place) => place.article_id);
      const order = orderWithArticle(current, articleId, op.body.position);
      if (!order) return;
      const key = listArticleKey(op.listId, articleId);
      await db.list_articles.put({
        key,
        list_id: op.listId,
        article_id: articleId,
        position: current.length,
        added_at: at,
      });
      await renumberList(db, op.listId, order);
      await db.lists.put({ ...list, updated_at: at });
      return;
    }
    case 'removeListArticle': {
      const list = await db.lists.get(op.listId);
      const key = listArticleKey(op.listId, op.articleId);
      if (!list || !(await db.list_articles.get(key))) return;
      await db.list_articles.delete(key);
      await renumberList(db, op.listId);
      await db.lists.put({ ...list, updated_at: at });
      return;
    }
    case 'reorderList': {
      const list = await db.lists.get(op.listId);
      if (!list) return;
      const current = (await orderedPlaces(db, op.listId)).map((place) => place.article_id);
      await renumberList(db, op.listId, mergeOrder(op.body.articles, current));
      await db.lists.put({ ...list, updated_at: at });
      return;
    }
    case 'createHighlight': {
      const { body } = op;
      if ((await db.highlights.get(body.id)) || !(await db.articles.get(body.articleId))) return;
      await putHighlights(db, [
        {
          id: body.id,
          article_id: body.articleId,
          highlighted_text: body.highlightedText,
          context_before: body.contextBefore ?? '',
          context_after: body.contextAfter ?? '',
          position_start: body.positionStart,
          position_end: body.positionEnd,
          color: HIGHLIGHT_COLOR,
          created_at: at,
          updated_at: at,
        },
      ]);
      return refreshHighlightCounts(db, [body.articleId]);
    }
    case 'updateHighlight': {
      const highlight = await db.highlights.get(op.id);
      if (!highlight) return;
      const { body } = op;
      await putHighlights(db, [
        {
          ...highlight,
          highlighted_text: body.highlightedText ?? highlight.highlighted_text,
          context_before: body.contextBefore ?? highlight.context_before,
          context_after: body.contextAfter ?? highlight.context_after,
          position_start: body.positionStart ?? highlight.position_start,
          position_end: body.positionEnd ?? highlight.position_end,
          updated_at: at,
        },
      ]);
      return;
    }
    case 'deleteHighlight': {
      const highlight = await db.highlights.get(op.id);
      if (!highlight) return;
      await db.highlights.delete(op.id);
      return refreshHighlightCounts(db, [highlight.article_id]);
    }
  }
}
