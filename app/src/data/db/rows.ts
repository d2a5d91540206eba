// What each IndexedDB table holds. Rows mirror the API's entities; numbers the server derives (tag and list
// article counts, a highlight's article title) are derived again at read time so local edits count too.
import type { ArticleSummary, Highlight, ListArticle, ReadingList, User } from '@lectern/shared-schema';
import type { Operation } from '../outbox/operations';
import type { TermIndexPart, TermIndexSnapshot } from '../search/term-index';

/** An article without its body (kept apart so that list queries stay small). */
export interface ArticleRow extends ArticleSummary {
  /** Lowercased tag names: a multi-entry index for the tag filter and tag counts. */
  tag_keys: string[];
  /** Raised on every write, so the in-memory search index can catch up with other tabs' writes. */
  rev: number;
  /** A hash of the stored body: the feed re-sends articles whose counts change, mostly with the same body. */
  content_hash?: number;
  /** The lists the row is in, in each order (db/list-keys.ts): set on every write, absent before. */
  list_keys?: string[];
}

/**
 * One page of a first sync's cards, staged as one row until its cards are moved into `articles`
 * (db/staged-cards.ts). A page changed (a card deleted or staged again by a later page) gets a new key.
 */
export interface CardPageRow {
  key?: number;
  rows: ArticleRow[];
}

/**
 * The ids of a staged page's cards, under the page's key: what finds the page of a card without reading
 * the page itself. A row of its own rather than a multi-entry index on the page, which cost IndexedDB as
 * much again as the page to write.
 */
export interface CardPageIdsRow {
  key: number;
  ids: string[];
}

export interface ArticleContentRow {
  id: string;
  content: string | null;
  /**
   * The body as plain text, as versions before 2 December 2026 stored it beside each body: read by nothing
   * now (the search index makes it from `content` when it takes the article in), only counted in what the
   * device holds until the body is written again. Storing it doubled what a new device writes.
   */
  text?: string;
  /** Raised on every write (the same counter as articles'), so search and the offline images see new bodies. */
  rev?: number;
}

export interface TagRow {
  id: string;
  name: string;
  name_key: string;
  created_at: string;
}

export type ListRow = Omit<ReadingList, 'article_count'>;

export interface ListArticleRow extends ListArticle {
  /** The change feed's id of the place: `${list_id}:${article_id}`. */
  key: string;
}

export interface HighlightRow extends Omit<Highlight, 'article_title' | 'article_image'> {
  rev: number;
}

export type OutboxStatus = 'pending' | 'failed';

/** One REST call of spec section 7 waiting to reach the server, in the order it was made. */
export interface OutboxRow {
  seq?: number;
  op: Operation;
  /** Sent as the Idempotency-Key header on writes that are not creates. */
  key: string;
  status: OutboxStatus;
  /** Why the server refused it (the `{error}` text), shown with Retry and Delete. */
  error: string | null;
  status_code: number | null;
  attempts: number;
  created_at: string;
  /** Every entity id the call touches: a failed call holds back later calls on the same ids. */
  ids: string[];
}

/** The image of a screenshot saved offline, uploaded before anything that refers to its article. */
export interface ScreenshotRow {
  article_id: string;
  bytes: ArrayBuffer;
  type: string;
  name: string;
}

/**
 * An image the device keeps for reading offline (data/offline): an archived image of an article's body or
 * lead, or a screenshot article's picture. The bytes are in `image_files`, so sizes and states read small.
 */
export interface OfflineImageRow {
  /** The server's address, `/api/images/{articleId}/{hash}.{ext}` or `/api/articles/{id}/screenshot`. */
  path: string;
  article_id: string;
  /** The article's `created_at`: newest first is the order of downloads and of the budget. */
  created_at: string;
  /**
   * wanted: to download; stored: on the device; over: past the budget (downloaded again if it grows);
   * freed: given up by "Free space" (fetched again only when its article is opened online);
   * failed: the server has no such image (404), or refused it.
   */
  state: 'wanted' | 'stored' | 'over' | 'freed' | 'failed';
  /** Bytes on the device (0 until stored). */
  size: number;
}

export interface ImageFileRow {
  path: string;
  bytes: ArrayBuffer;
  type: string;
}

export interface MetaValues {
  /** The change feed position pulled up to. */
  cursor: number;
  /** Whose data this database holds; another user signing in starts from an empty database. */
  user: User;
  lastSyncedAt: string;
  /** The last `rev` handed out. */
  rev: number;
  /** Articles up to this `rev` have had their images listed in `offline_images`. */
  offlineImagesRev: number;
  /**
   * A first sync is under way: the feed is pulled as cards (articles without their body) until it reaches
   * its end, also after a reload.
   */
  cardsPull: boolean;
  /** Some articles came as cards: their bodies are still to fetch (offline/body-downloads.ts). */
  bodiesWanted: boolean;
  /**
   * The budget (bytes) the bodies filled: the walk stopped at an article whose body didn't fit. Until the
   * reader gives more, nothing is fetched again to learn it still doesn't.
   */
  bodiesBudgetFull: number;
  /** What the bodies downloaded for cards take (UTF-16 bytes of their HTML): what the budget counts. */
  bodyBytes: number;
}

export type MetaKey = keyof MetaValues;

export interface MetaRow {
  key: MetaKey;
  value: MetaValues[MetaKey];
}

/** A search index written out: what it answers for is every article up to `rev`. */
export interface SearchIndexRow {
  key: 'articles';
  /** The articles' `rev` the index had caught up with. */
  rev: number;
  /** The bodies' `rev` (the `bodies` table) it had caught up with; absent in an index written before version 5. */
  bodyRev?: number;
  /** Whose articles it indexes: an index written for someone else is never read. */
  user: string;
  /** The whole index, in the head itself: as it was written before version 10. */
  snapshot?: TermIndexSnapshot;
  /** Since version 10 (search/stored-index.ts): document number → id ('' once removed). */
  ids?: string[];
  /** Document number → signatureHash. */
  signatures?: Float64Array | string[];
  /** The parts holding the postings: `${generation}:${n}` for n below `parts`, in `search_index_parts`. */
  generation?: string;
  parts?: number;
}

/** The postings of a range of terms of the stored search index (search/stored-index.ts). */
export interface SearchIndexPartRow extends TermIndexPart {
  key: string;
}

/**
 * The library's counts, kept with every write of an article row in the same transaction
 * (db/article-counts.ts): what the stats and the tags' article counts read instead of counting every row.
 */
export interface ArticleCountsRow {
  key: 'library';
  total: number;
  /** Not archived and not read. */
  unread: number;
  archived: number;
  favorites: number;
  /** Articles per tag key (tag_keys); a key no article carries is absent. */
  tags: Record<string, number>;
}
