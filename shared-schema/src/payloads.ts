// Request payloads of spec section 7 (camelCase, as the spec names them) and their query strings.
import { Type, type Static } from 'typebox';
import {
  ARTICLE_TAGS_MAX,
  TAG_NAME_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  RECENT_HIGHLIGHTS_MAX_LIMIT,
  USERNAME_MAX_LENGTH,
  BODIES_MAX_IDS,
  CARDS_MAX_LIMIT,
} from './constants';
import { EMAIL_PATTERN, FILLED_IN_PATTERN, HIGHLIGHT_TEXT_PATTERN } from './validation';

/** Clients may name what they create, so that a replayed create is recognised (DESIGN.md section 2). */
export const ClientId = Type.String({ format: 'uuid' });
export const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type IdParam = Static<typeof IdParam>;

const Email = Type.String({ maxLength: 254, pattern: EMAIL_PATTERN });
const Username = Type.String({ minLength: 1, maxLength: USERNAME_MAX_LENGTH, pattern: FILLED_IN_PATTERN });

export const RegisterBody = Type.Object({
  email: Email,
  password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: 1024 }),
  username: Username,
});
export type RegisterBody = Static<typeof RegisterBody>;

export const LoginBody = Type.Object({
  email: Email,
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type LoginBody = Static<typeof LoginBody>;

/**
 * The tab that starts Google sign-in makes a one-time nonce (base64url); the server binds the sign-in's
 * one-time code to it, and the app trades code and nonce for a token (POST /auth/google/exchange).
 */
const GOOGLE_NONCE_SOURCE = '^[A-Za-z0-9_-]{22,128}$';
export const GOOGLE_NONCE_PATTERN = new RegExp(GOOGLE_NONCE_SOURCE);
const GoogleNonce = Type.String({ pattern: GOOGLE_NONCE_SOURCE });
// Checked by the route, not the schema: a bad nonce sends the browser back to /auth/callback, not to JSON.
export const GoogleStartQuery = Type.Object({ nonce: Type.Optional(Type.String({ maxLength: 4096 })) });
export type GoogleStartQuery = Static<typeof GoogleStartQuery>;
export const GoogleExchangeBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 128 }),
  nonce: GoogleNonce,
});
export type GoogleExchangeBody = Static<typeof GoogleExchangeBody>;

export const ProfileBody = Type.Object({ username: Username });
export type ProfileBody = Static<typeof ProfileBody>;

const TagName = Type.String({ minLength: 1, maxLength: TAG_NAME_MAX_LENGTH, pattern: FILLED_IN_PATTERN });
const HttpUrl = Type.String({ minLength: 1, maxLength: 4096 });

export const CreateArticleBody = Type.Object({
  url: HttpUrl,
  tags: Type.Optional(Type.Array(TagName, { maxItems: ARTICLE_TAGS_MAX })),
  id: Type.Optional(ClientId),
  /**
   * The page as the reader's browser shows it (its serialised DOM): the server extracts from it instead of
   * fetching `url`, which stays the article's address and the base of its relative links. No maxLength
   * here: past PAGE_HTML_MAX_BYTES the answer is 413, not a validation 400.
   */
  html: Type.Optional(Type.String()),
});
export type CreateArticleBody = Static<typeof CreateArticleBody>;

export const UpdateArticleBody = Type.Object(
  {
    isRead: Type.Optional(Type.Boolean()),
    isFavorite: Type.Optional(Type.Boolean()),
    isArchived: Type.Optional(Type.Boolean()),
    readingProgress: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false },
);
export type UpdateArticleBody = Static<typeof UpdateArticleBody>;

export const ArticlesQuery = Type.Object({
  archived: Type.Optional(Type.Boolean()),
  favorite: Type.Optional(Type.Boolean()),
  is_read: Type.Optional(Type.Boolean()),
  tag_name: Type.Optional(Type.String({ maxLength: 100 })),
});
export type ArticlesQuery = Static<typeof ArticlesQuery>;

export const SearchQuery = Type.Object({ q: Type.String({ maxLength: 500 }) });
export type SearchQuery = Static<typeof SearchQuery>;

export const MetadataQuery = Type.Object({ url: HttpUrl });
export type MetadataQuery = Static<typeof MetadataQuery>;

export const AttachTagBody = Type.Object({ tagId: Type.String({ minLength: 1, maxLength: 64 }) });
export type AttachTagBody = Static<typeof AttachTagBody>;

export const ArticleTagParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  tagId: Type.String({ minLength: 1, maxLength: 64 }),
});
export type ArticleTagParams = Static<typeof ArticleTagParams>;

export const CreateTagBody = Type.Object({ name: TagName, id: Type.Optional(ClientId) });
export type CreateTagBody = Static<typeof CreateTagBody>;

export const UpdateTagBody = Type.Object({ name: TagName });
export type UpdateTagBody = Static<typeof UpdateTagBody>;

const ListName = Type.String({ minLength: 1, maxLength: 200, pattern: FILLED_IN_PATTERN });
const ListDescription = Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]);

export const CreateListBody = Type.Object({
  name: ListName,
  description: Type.Optional(ListDescription),
  isPublic: Type.Optional(Type.Boolean()),
  id: Type.Optional(ClientId),
});
export type CreateListBody = Static<typeof CreateListBody>;

export const UpdateListBody = Type.Object(
  {
    name: Type.Optional(ListName),
    description: Type.Optional(ListDescription),
    isPublic: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpdateListBody = Static<typeof UpdateListBody>;

export const AddListArticleBody = Type.Object({
  articleId: Type.String({ minLength: 1, maxLength: 64 }),
  position: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type AddListArticleBody = Static<typeof AddListArticleBody>;

export const ListArticleParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  articleId: Type.String({ minLength: 1, maxLength: 64 }),
});
export type ListArticleParams = Static<typeof ListArticleParams>;

export const ReorderListBody = Type.Object({
  articles: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 10000 }),
});
export type ReorderListBody = Static<typeof ReorderListBody>;

export const ShareIdParam = Type.Object({ shareId: Type.String({ minLength: 1, maxLength: 64 }) });
export type ShareIdParam = Static<typeof ShareIdParam>;

/** Spec section 5: at least 3 characters after trimming (isHighlightSelection says the same). */
const HighlightText = Type.String({ maxLength: 20000, pattern: HIGHLIGHT_TEXT_PATTERN });
const Context = Type.String({ maxLength: 1000 });
const Position = Type.Integer({ minimum: 0 });

export const CreateHighlightBody = Type.Object({
  articleId: Type.String({ minLength: 1, maxLength: 64 }),
  highlightedText: HighlightText,
  contextBefore: Type.Optional(Context),
  contextAfter: Type.Optional(Context),
  positionStart: Position,
  positionEnd: Position,
  color: Type.Optional(Type.String({ maxLength: 20 })),
  id: Type.Optional(ClientId),
});
export type CreateHighlightBody = Static<typeof CreateHighlightBody>;

export const UpdateHighlightBody = Type.Object(
  {
    highlightedText: Type.Optional(HighlightText),
    contextBefore: Type.Optional(Context),
    contextAfter: Type.Optional(Context),
    positionStart: Type.Optional(Position),
    positionEnd: Type.Optional(Position),
    color: Type.Optional(Type.String({ maxLength: 20 })),
  },
  { additionalProperties: false },
);
export type UpdateHighlightBody = Static<typeof UpdateHighlightBody>;

export const ArticleIdParam = Type.Object({ articleId: Type.String({ minLength: 1, maxLength: 64 }) });
export type ArticleIdParam = Static<typeof ArticleIdParam>;

export const RecentHighlightsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: RECENT_HIGHLIGHTS_MAX_LIMIT })),
});
export type RecentHighlightsQuery = Static<typeof RecentHighlightsQuery>;

export const ChangesQuery = Type.Object({
  since: Type.Optional(Type.Integer({ minimum: 0 })),
  /** At most CHANGES_MAX_LIMIT, or CARDS_MAX_LIMIT with `cards` (the route checks which). */
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: CARDS_MAX_LIMIT })),
  /** Articles as cards, without their body (a new device's first sync): bodies come by /articles/bodies. */
  cards: Type.Optional(Type.Boolean()),
});
export type ChangesQuery = Static<typeof ChangesQuery>;

export const BodiesBody = Type.Object(
  {
    ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: BODIES_MAX_IDS }),
  },
  { additionalProperties: false },
);
export type BodiesBody = Static<typeof BodiesBody>;
