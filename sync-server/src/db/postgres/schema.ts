// The PostgreSQL schema: db/schema.ts (SQLite) table for table, column for column, with the same names and
// the same row types ($inferSelect / $inferInsert), which db/schemas-in-step.test.ts checks at compile time
// and at run time. drizzle-kit generates ./migrations from this file (drizzle.postgres.config.ts); the
// search vectors and the change feed's triggers live in custom migrations there.
//
// Where the engines differ the types don't: SQLite's 0/1 booleans are `boolean`, its autoincrement keys
// identity columns read as numbers, `real` is double precision, and timestamps stay ISO-8601 text as on
// SQLite, so the services compare and sort them the same way on both.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** SQLite's INTEGER PRIMARY KEY AUTOINCREMENT: increasing, optional on insert, read as a JS number. */
const sequenceKey = (name: string) =>
  bigint(name, { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity();

const createdAt = () => text('created_at').notNull();
const updatedAt = () => text('updated_at').notNull();

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username'),
    avatarUrl: text('avatar_url'),
    passwordHash: text('password_hash'),
    googleSub: text('google_sub'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_google_sub_unique').on(t.googleSub),
  ],
);

/** One row per issued token; revoking it (logout) or deleting the user makes the token answer 401. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: text('expires_at').notNull(),
    revokedAt: text('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const articles = pgTable(
  'articles',
  {
    // Kept as on SQLite (where the full-text index's rowid is this key): the feed and tests order by it.
    seq: sequenceKey('seq'),
    id: text('id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    author: text('author'),
    imageUrl: text('image_url'),
    screenshotUrl: text('screenshot_url'),
    articleType: text('article_type', { enum: ['web', 'screenshot'] }).notNull(),
    excerpt: text('excerpt'),
    publishedDate: text('published_date'),
    siteName: text('site_name'),
    language: text('language'),
    readingTime: integer('reading_time'),
    readingProgress: doublePrecision('reading_progress').notNull().default(0),
    isRead: boolean('is_read').notNull().default(false),
    isFavorite: boolean('is_favorite').notNull().default(false),
    isArchived: boolean('is_archived').notNull().default(false),
    /** Sort date of the library: when it was saved, or saved again (re-saving brings it back to the top). */
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * The url as shared-schema's normalizeArticleUrl writes it: saving an address the user already has
     * answers that article. Null only until the server backfills rows saved before this column existed.
     */
    normalizedUrl: text('normalized_url'),
    /**
     * An imported row whose page is still to be fetched ('pending'), or could not be ('failed', with the
     * reason in fetch_error, offered again by Retry). Null for every article saved whole.
     */
    fetchState: text('fetch_state', { enum: ['pending', 'failed'] }),
    fetchError: text('fetch_error'),
    /**
     * True from a save until its images are archived on this server or given up (services/image-archive.ts);
     * the body and image_url still name the publisher's images meanwhile.
     */
    imagesPending: boolean('images_pending').notNull().default(false),
    /** Tag names joined by spaces, kept for the full-text index. */
    tagsText: text('tags_text').notNull().default(''),
    content: text('content'),
    contentText: text('content_text').notNull().default(''),
  },
  (t) => [
    uniqueIndex('articles_id_unique').on(t.id),
    index('articles_user_created_idx').on(t.userId, t.createdAt),
    index('articles_user_normalized_url_idx').on(t.userId, t.normalizedUrl),
    // Only the rows the start-up backfill still has to fill (none, once it ran): start-up reads this empty
    // index instead of scanning the address index of every article (db/connection.ts).
    index('articles_missing_normalized_url_idx')
      .on(t.seq)
      .where(sql`${t.normalizedUrl} IS NULL`),
    // The few articles whose page is still being fetched or failed, and those whose images are still being
    // archived: small partial indexes, as on SQLite, so the in-step test finds the same indexes on both.
    index('articles_fetch_state_idx')
      .on(t.seq, t.fetchState, t.fetchError)
      .where(sql`${t.fetchState} IS NOT NULL`),
    index('articles_images_pending_idx')
      .on(t.seq)
      .where(sql`${t.imagesPending}`),
  ],
);

export const tags = pgTable(
  'tags',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * shared-schema's tagNameKey(name): the tag's identity, the same function the device uses. Null only
     * until the server fills in rows made before this column existed (db/tag-keys.ts).
     */
    nameKey: text('name_key'),
  },
  (t) => [
    uniqueIndex('tags_user_name_key_unique').on(t.userId, t.nameKey),
    // The tags start-up still has to key (none, once it ran), so start-up reads no tag (services/tags.ts).
    index('tags_missing_name_key_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.nameKey} IS NULL`),
  ],
);

export const articleTags = pgTable(
  'article_tags',
  {
    articleId: text('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    tagId: text('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.tagId] }), index('article_tags_tag_idx').on(t.tagId)],
);

export const readingLists = pgTable(
  'reading_lists',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    isPublic: boolean('is_public').notNull().default(true),
    shareId: text('share_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('reading_lists_share_id_unique').on(t.shareId),
    index('reading_lists_user_idx').on(t.userId),
  ],
);

export const listArticles = pgTable(
  'list_articles',
  {
    listId: text('list_id')
      .notNull()
      .references(() => readingLists.id, { onDelete: 'cascade' }),
    articleId: text('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    addedAt: text('added_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.articleId] }),
    index('list_articles_article_idx').on(t.articleId),
  ],
);

export const highlights = pgTable(
  'highlights',
  {
    seq: sequenceKey('seq'),
    id: text('id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    articleId: text('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    highlightedText: text('highlighted_text').notNull(),
    contextBefore: text('context_before').notNull().default(''),
    contextAfter: text('context_after').notNull().default(''),
    positionStart: integer('position_start').notNull(),
    positionEnd: integer('position_end').notNull(),
    color: text('color').notNull().default('yellow'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('highlights_id_unique').on(t.id),
    index('highlights_user_created_idx').on(t.userId, t.createdAt),
    index('highlights_article_idx').on(t.articleId),
  ],
);

/**
 * Every write appends here in its own transaction. PostgreSQL commits transactions out of seq order, so
 * each transaction appends only while holding its user's advisory lock (db/postgres/connection.ts): within
 * one user's rows seq N+1 is never visible before seq N, and a cursor never skips a change. The log is
 * compacted as it is written: an entity keeps only its latest change, whose seq is above every cursor
 * that had not seen the older ones, so no device misses the entity's latest state.
 */
export const changeLog = pgTable(
  'change_log',
  {
    seq: sequenceKey('seq'),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    entity: text('entity', { enum: ['article', 'highlight', 'tag', 'list', 'list_article'] }).notNull(),
    entityId: text('entity_id').notNull(),
    op: text('op', { enum: ['upsert', 'delete'] }).notNull(),
    row: text('row'),
    createdAt: createdAt(),
  },
  (t) => [
    index('change_log_user_seq_idx').on(t.userId, t.seq),
    index('change_log_entity_idx').on(t.userId, t.entity, t.entityId),
  ],
);

/**
 * Each article's card, the JSON its GET serves less the body, written with every change the feed records
 * for the article (services/change-log.ts): a new device's pages of cards (GET /api/sync/changes?cards=true)
 * read it as it is instead of building each card from the article's columns, tags and highlights. Kept
 * apart from change_log, whose row holds the whole body before it. Gone with its article.
 */
export const articleCards = pgTable('article_cards', {
  articleId: text('article_id')
    .primaryKey()
    .references(() => articles.id, { onDelete: 'cascade' }),
  card: text('card').notNull(),
});

/**
 * Which article uses which archived image. The bytes are stored once per content hash under
 * DATA_DIR/images/; a file is removed when no row names its hash any more (services/deletions.ts).
 */
export const articleImages = pgTable(
  'article_images',
  {
    articleId: text('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    /** sha256 of the stored bytes, lowercase hex. */
    hash: text('hash').notNull(),
    ext: text('ext', { enum: ['png', 'jpg', 'gif', 'webp', 'avif', 'svg'] }).notNull(),
    bytes: integer('bytes').notNull(),
    mime: text('mime').notNull(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.hash] }), index('article_images_hash_idx').on(t.hash)],
);

/** One-time work the server has done (a backfill), so that it runs once. */
export const serverMarkers = pgTable('server_markers', {
  name: text('name').primaryKey(),
  doneAt: text('done_at').notNull(),
});

/** Ids of deleted entities: a replayed create of a deleted id must not bring it back. */
export const tombstones = pgTable(
  'tombstones',
  {
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deletedAt: text('deleted_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entity, t.entityId] })],
);

/**
 * Results of writes sent with an Idempotency-Key, so that a replay answers what the first try did. Only the
 * status and the entity the answer named are kept (a replay reads that entity as it is now), never an
 * answer's body: an article's body would otherwise stay here after the article was deleted. Refusals keep
 * their small `{error}` body, which the client acts on. Rows expire (see plugins/idempotency.ts).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    statusCode: integer('status_code').notNull(),
    /** Only for refusals (4xx): their `{error}` body. */
    body: text('body'),
    /** What a successful answer held: 'article', 'highlight', 'list', 'list_with_articles', 'tag', 'user'. */
    entity: text('entity'),
    entityId: text('entity_id'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** A library brought in from another app's export file; its rows become articles, its pages are fetched later. */
export const imports = pgTable(
  'imports',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] }).notNull(),
    /** Rows the file holds, malformed ones included. */
    total: integer('total').notNull(),
    /** Rows that became articles. */
    imported: integer('imported').notNull().default(0),
    /** Rows whose address the library already held (or the file held twice). */
    skipped: integer('skipped').notNull().default(0),
    /** Rows that could not become articles (malformed, not a web address). */
    failed: integer('failed').notNull().default(0),
    createdAt: createdAt(),
    finishedAt: text('finished_at'),
  },
  (t) => [index('imports_user_created_idx').on(t.userId, t.createdAt)],
);

/**
 * An import's parsed rows waiting to become articles. Each batch is written as articles and deleted in one
 * transaction, so a restart goes on with exactly the rows not yet written.
 */
export const importRows = pgTable(
  'import_rows',
  {
    importId: text('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** The prepared row as JSON (imports/prepare-import.ts). */
    data: text('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.position] })],
);

/** The rows of an import that failed, with their line in the file and the reason. */
export const importFailures = pgTable(
  'import_failures',
  {
    importId: text('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    url: text('url'),
    reason: text('reason').notNull(),
  },
  (t) => [index('import_failures_import_idx').on(t.importId, t.line)],
);

/**
 * Background work persisted so that it survives a restart: queued, claimed (running), then done or failed.
 * (kind, key) is unique, so the same work is never queued twice; `group_id` ties jobs to what they serve
 * (an import), whose progress is counted from them.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: sequenceKey('id'),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: text('group_id'),
    payload: text('payload').notNull().default('{}'),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    runAfter: text('run_after').notNull(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('jobs_kind_key_unique').on(t.kind, t.key),
    index('jobs_due_idx').on(t.status, t.runAfter),
    index('jobs_group_idx').on(t.groupId, t.status),
    // A user's jobs waiting or running, counted (a few at most) to give each job its turn among users'.
    index('jobs_user_kind_status_idx').on(t.userId, t.kind, t.status),
    // Queued jobs by user and kind, oldest due first: the SQLite queue's claim seeks its way through them.
    index('jobs_queued_idx').on(t.status, t.userId, t.kind, t.runAfter),
  ],
);

/**
 * Rate limits' recent hits, one row per limit and key (an email, a network), in the database rather than
 * in a process's memory: every node counts in the same row, so a client can't escape a limit by reaching
 * another node. Each check-and-count runs in one transaction holding the row (services/rate-limiter.ts).
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    /** Which limit: 'login-email', 'login-network', 'registration-network'. */
    name: text('name').notNull(),
    key: text('key').notNull(),
    /** The times (ms) of the hits still in the window, oldest first, as a JSON array: at most the limit. */
    hits: text('hits').notNull(),
    /** When the last hit leaves the window (ms): the row is swept after it. */
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.key] }), index('rate_limits_expiry_idx').on(t.expiresAt)],
);

/**
 * Google sign-ins waiting for their tab to trade the one-time code (services/google-sign-in-codes.ts): any
 * node may issue a code and any node redeem it, once. Only digests are kept: a read of this table can't
 * redeem a code. Rows live a minute, and are swept as codes are issued.
 */
export const signInCodes = pgTable(
  'sign_in_codes',
  {
    /** SHA-256 of the code, base64. */
    codeDigest: text('code_digest').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the nonce of the tab that started the sign-in, base64. */
    nonceDigest: text('nonce_digest').notNull(),
    /** When the code stops working (ms). */
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('sign_in_codes_expiry_idx').on(t.expiresAt)],
);
