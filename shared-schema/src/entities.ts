// Entities of spec section 3 as the API serves them (snake_case, `user.avatarUrl`).
import { Type, type Static } from 'typebox';

/**
 * `string | null` as `type: [..., 'null']` rather than `anyOf`, which response serializers handle without
 * trying each branch in turn.
 */
export const NullableString = (options: { maxLength?: number } = {}) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });
export const NullableInteger = () => Type.Unsafe<number | null>({ type: ['integer', 'null'] });

export const IsoDate = Type.String({ description: 'ISO-8601 UTC timestamp' });

export const User = Type.Object({
  id: Type.String(),
  email: Type.String(),
  username: NullableString(),
  avatarUrl: NullableString(),
  created_at: IsoDate,
});
export type User = Static<typeof User>;

export const ArticleType = Type.Union([Type.Literal('web'), Type.Literal('screenshot')]);
export type ArticleType = Static<typeof ArticleType>;

const articleFields = {
  id: Type.String(),
  url: Type.String(),
  title: Type.String(),
  description: NullableString(),
  author: NullableString(),
  image_url: NullableString(),
  screenshot_url: NullableString(),
  article_type: ArticleType,
  excerpt: NullableString(),
  published_date: NullableString(),
  site_name: NullableString(),
  language: NullableString(),
  reading_time: NullableInteger(),
  reading_progress: Type.Number({ minimum: 0, maximum: 1 }),
  is_read: Type.Boolean(),
  is_favorite: Type.Boolean(),
  is_archived: Type.Boolean(),
  highlights_count: Type.Integer(),
  tags: Type.Array(Type.String()),
  created_at: IsoDate,
  updated_at: IsoDate,
  /**
   * Only on an imported article whose page is still being fetched ('pending') or could not be ('failed',
   * with the reason in fetch_error, and a Retry). Absent on every article saved whole.
   */
  fetch_state: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('failed')])),
  fetch_error: Type.Optional(Type.String()),
  /**
   * True from a save until the server has archived its images (or given up on those it could not fetch);
   * meanwhile image_url and the body still name the publisher's images. The server always sends it; a
   * client may ignore it.
   */
  images_pending: Type.Optional(Type.Boolean()),
};

/** One article with its extracted HTML body (`GET /articles/{id}`, the change feed, export). */
export const Article = Type.Object({ ...articleFields, content: NullableString() });
export type Article = Static<typeof Article>;

/** Lists and search results leave the body out to stay small. */
export const ArticleSummary = Type.Object(articleFields);
export type ArticleSummary = Static<typeof ArticleSummary>;

export const ArticleStats = Type.Object({
  total: Type.Integer(),
  unread: Type.Integer(),
  read: Type.Integer(),
  archived: Type.Integer(),
  favorites: Type.Integer(),
});
export type ArticleStats = Static<typeof ArticleStats>;

export const Tag = Type.Object({
  id: Type.String(),
  name: Type.String(),
  article_count: Type.Integer(),
  created_at: IsoDate,
});
export type Tag = Static<typeof Tag>;

export const ReadingList = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: NullableString(),
  is_public: Type.Boolean(),
  share_id: Type.String(),
  article_count: Type.Integer(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type ReadingList = Static<typeof ReadingList>;

/** An article's place in a list: the change feed's `list_article` entity. */
export const ListArticle = Type.Object({
  list_id: Type.String(),
  article_id: Type.String(),
  position: Type.Integer(),
  added_at: IsoDate,
});
export type ListArticle = Static<typeof ListArticle>;

/** The public view of a list: what spec section 2 shows, never an email or a user id. */
export const PublicReadingList = Type.Object({
  name: Type.String(),
  description: NullableString(),
  share_id: Type.String(),
  article_count: Type.Integer(),
  owner_username: NullableString(),
  created_at: IsoDate,
});
export type PublicReadingList = Static<typeof PublicReadingList>;

export const PublicArticle = Type.Object({
  id: Type.String(),
  url: Type.String(),
  title: Type.String(),
  description: NullableString(),
  author: NullableString(),
  image_url: NullableString(),
  reading_time: NullableInteger(),
  tags: Type.Array(Type.String()),
  created_at: IsoDate,
});
export type PublicArticle = Static<typeof PublicArticle>;

export const HighlightColor = Type.Literal('yellow');

export const Highlight = Type.Object({
  id: Type.String(),
  article_id: Type.String(),
  highlighted_text: Type.String(),
  context_before: Type.String(),
  context_after: Type.String(),
  position_start: Type.Integer(),
  position_end: Type.Integer(),
  color: HighlightColor,
  created_at: IsoDate,
  updated_at: IsoDate,
  article_title: Type.String(),
  article_image: NullableString(),
});
export type Highlight = Static<typeof Highlight>;

export const HighlightStats = Type.Object({
  total_highlights: Type.Integer(),
  articles_with_highlights: Type.Integer(),
  highlights_this_week: Type.Integer(),
});
export type HighlightStats = Static<typeof HighlightStats>;
