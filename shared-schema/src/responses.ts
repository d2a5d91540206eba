// Response bodies: objects keyed by entity (DESIGN.md section 2).
import { Type, type Static } from 'typebox';
import {
  Article,
  ArticleStats,
  ArticleSummary,
  Highlight,
  HighlightStats,
  NullableInteger,
  NullableString,
  PublicArticle,
  PublicReadingList,
  ReadingList,
  Tag,
  User,
} from './entities';

export const ErrorResponse = Type.Object({ error: Type.String() });
export type ErrorResponse = Static<typeof ErrorResponse>;

export const AuthResponse = Type.Object({ token: Type.String(), user: User });
export type AuthResponse = Static<typeof AuthResponse>;

export const UserResponse = Type.Object({ user: User });
export type UserResponse = Static<typeof UserResponse>;

export const ArticleResponse = Type.Object({ article: Article });
export type ArticleResponse = Static<typeof ArticleResponse>;

export const ArticleListResponse = Type.Object({ articles: Type.Array(ArticleSummary), stats: ArticleStats });
export type ArticleListResponse = Static<typeof ArticleListResponse>;

export const ArticleSearchResponse = Type.Object({ articles: Type.Array(ArticleSummary) });
export type ArticleSearchResponse = Static<typeof ArticleSearchResponse>;

export const PageMetadata = Type.Object({
  url: Type.String(),
  title: Type.String(),
  description: NullableString(),
  author: NullableString(),
  image_url: NullableString(),
  site_name: NullableString(),
  published_date: NullableString(),
  language: NullableString(),
  reading_time: NullableInteger(),
});
export type PageMetadata = Static<typeof PageMetadata>;

export const MetadataResponse = Type.Object({ metadata: PageMetadata });
export type MetadataResponse = Static<typeof MetadataResponse>;

export const TagsResponse = Type.Object({ tags: Type.Array(Tag) });
export type TagsResponse = Static<typeof TagsResponse>;

export const TagResponse = Type.Object({ tag: Tag });
export type TagResponse = Static<typeof TagResponse>;

export const TagArticlesResponse = Type.Object({ tag: Tag, articles: Type.Array(ArticleSummary) });
export type TagArticlesResponse = Static<typeof TagArticlesResponse>;

export const ListsResponse = Type.Object({ lists: Type.Array(ReadingList) });
export type ListsResponse = Static<typeof ListsResponse>;

export const ListResponse = Type.Object({ list: ReadingList });
export type ListResponse = Static<typeof ListResponse>;

export const ListWithArticlesResponse = Type.Object({
  list: ReadingList,
  articles: Type.Array(ArticleSummary),
});
export type ListWithArticlesResponse = Static<typeof ListWithArticlesResponse>;

export const PublicListResponse = Type.Object({
  list: PublicReadingList,
  articles: Type.Array(PublicArticle),
});
export type PublicListResponse = Static<typeof PublicListResponse>;

export const HighlightsWithStatsResponse = Type.Object({
  highlights: Type.Array(Highlight),
  stats: HighlightStats,
});
export type HighlightsWithStatsResponse = Static<typeof HighlightsWithStatsResponse>;

export const HighlightsResponse = Type.Object({ highlights: Type.Array(Highlight) });
export type HighlightsResponse = Static<typeof HighlightsResponse>;

export const HighlightResponse = Type.Object({ highlight: Highlight });
export type HighlightResponse = Static<typeof HighlightResponse>;

export const HighlightStatsResponse = Type.Object({ stats: HighlightStats });
export type HighlightStatsResponse = Static<typeof HighlightStatsResponse>;

export const HealthResponse = Type.Object({ status: Type.Literal('ok') });
export type HealthResponse = Static<typeof HealthResponse>;
