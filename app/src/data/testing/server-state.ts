// A user's whole server state in a form two accounts can be compared by: ids, share ids and timestamps
// replaced by what they point at (an article by its url, a tag by its name).
import type {
  ArticleListResponse,
  ArticleResponse,
  HighlightsWithStatsResponse,
  ListsResponse,
  ListWithArticlesResponse,
  TagsResponse,
} from '@lectern/shared-schema';

type Get = <T>(path: string) => Promise<T>;

export async function comparableServerState(get: Get) {
  const { articles, stats } = await get<ArticleListResponse>('/articles');
  const urlOf = new Map(articles.map((article) => [article.id, article.url]));
  const fullArticles = await Promise.all(
    articles.map(async ({ id }) => (await get<ArticleResponse>(`/articles/${id}`)).article),
  );
  const { tags } = await get<TagsResponse>('/tags');
  const { lists } = await get<ListsResponse>('/lists');
  const listDetails = await Promise.all(lists.map(({ id }) => get<ListWithArticlesResponse>(`/lists/${id}`)));
  const { highlights, stats: highlightStats } = await get<HighlightsWithStatsResponse>('/highlights');
  return {
    stats,
    articles: fullArticles
      .map((a) => ({
        url: a.url,
        title: a.title,
        content: a.content,
        tags: a.tags,
        is_read: a.is_read,
        is_favorite: a.is_favorite,
        is_archived: a.is_archived,
        reading_progress: a.reading_progress,
        highlights_count: a.highlights_count,
      }))
      .sort((a, b) => a.url.localeCompare(b.url)),
    tags: tags.map(({ name, article_count }) => ({ name, article_count })),
    lists: listDetails
      .map(({ list, articles: inList }) => ({
        name: list.name,
        description: list.description,
        is_public: list.is_public,
        article_count: list.article_count,
        articles: inList.map((article) => article.url),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    highlights: highlights
      .map((h) => ({
        article: urlOf.get(h.article_id),
        text: h.highlighted_text,
        context: [h.context_before, h.context_after],
        position: [h.position_start, h.position_end],
        article_title: h.article_title,
      }))
      .sort((a, b) => a.text.localeCompare(b.text)),
    highlightStats,
  };
}
