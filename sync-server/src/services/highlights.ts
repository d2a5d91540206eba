// Highlights: passages of an article, with the context that finds them again, and their stats.
import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import {
  computeHighlightStats,
  HIGHLIGHT_COLOR,
  isHighlightSelection,
  newId,
  SERVER_ERRORS,
  type CreateHighlightBody,
  type Highlight,
  type HighlightStats,
  type UpdateHighlightBody,
} from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import { getArticle } from './article-rows';
import { nowIso } from './change-log';
import { replayedCreate } from './replayed-create';
import { rankedHighlightIds } from './search-sqlite';
import { searchHighlightIds } from '../db/postgres/search';
import { badRequest, notFound } from './errors';
import { foundInSession, type TokenClaims } from './sessions';

/** Highlights with their article's title and image, as the API serves them (and their owner, to check). */
function selectHighlights(db: Queryable) {
  const { highlights, articles } = db.tables;
  return db.orm
    .select({
      id: highlights.id,
      user_id: highlights.userId,
      article_id: highlights.articleId,
      highlighted_text: highlights.highlightedText,
      context_before: highlights.contextBefore,
      context_after: highlights.contextAfter,
      position_start: highlights.positionStart,
      position_end: highlights.positionEnd,
      color: highlights.color,
      created_at: highlights.createdAt,
      updated_at: highlights.updatedAt,
      article_title: articles.title,
      article_image: articles.imageUrl,
    })
    .from(highlights)
    .innerJoin(articles, eq(articles.id, highlights.articleId));
}

type HighlightRow = Awaited<ReturnType<typeof selectHighlights>>[number];

// Every highlight is yellow (spec section 5), whatever an old row holds.
const toHighlight = ({ user_id: _owner, ...highlight }: HighlightRow): Highlight => ({
  ...highlight,
  color: HIGHLIGHT_COLOR,
});

export async function highlightStats(
  db: Queryable,
  userId: string,
  now = new Date(),
): Promise<HighlightStats> {
  const { highlights } = db.tables;
  const rows = await db.orm
    .select({ article_id: highlights.articleId, created_at: highlights.createdAt })
    .from(highlights)
    .where(eq(highlights.userId, userId));
  return computeHighlightStats(rows, now);
}

export async function listHighlights(
  db: Queryable,
  userId: string,
): Promise<{ highlights: Highlight[]; stats: HighlightStats }> {
  const { highlights } = db.tables;
  const rows = await selectHighlights(db)
    .where(eq(highlights.userId, userId))
    .orderBy(desc(highlights.createdAt), desc(highlights.id));
  return { highlights: rows.map(toHighlight), stats: await highlightStats(db, userId) };
}

export async function articleHighlights(
  db: Queryable,
  userId: string,
  articleId: string,
): Promise<Highlight[]> {
  await getArticle(db, userId, articleId);
  const { highlights } = db.tables;
  const rows = await selectHighlights(db)
    .where(and(eq(highlights.userId, userId), eq(highlights.articleId, articleId)))
    .orderBy(asc(highlights.positionStart), asc(highlights.createdAt));
  return rows.map(toHighlight);
}

export async function recentHighlights(db: Queryable, userId: string, limit: number): Promise<Highlight[]> {
  const { highlights } = db.tables;
  const rows = await selectHighlights(db)
    .where(eq(highlights.userId, userId))
    .orderBy(desc(highlights.createdAt), desc(highlights.id))
    .limit(limit);
  return rows.map(toHighlight);
}

async function findHighlight(db: Queryable, highlightId: string): Promise<HighlightRow | undefined> {
  return (await selectHighlights(db).where(eq(db.tables.highlights.id, highlightId)))[0];
}

export async function getHighlight(db: Queryable, userId: string, highlightId: string): Promise<Highlight> {
  const row = await findHighlight(db, highlightId);
  if (!row || row.user_id !== userId) throw notFound(SERVER_ERRORS.highlightNotFound);
  return toHighlight(row);
}

/** The caller's highlight, or undefined when it doesn't exist or is someone else's. */
export async function findHighlightFor(
  db: Queryable,
  userId: string,
  highlightId: string,
): Promise<Highlight | undefined> {
  const row = await findHighlight(db, highlightId);
  return row?.user_id === userId ? toHighlight(row) : undefined;
}

function checkPositions(start: number, end: number): void {
  if (end < start) throw badRequest('positionEnd must not be before positionStart');
}

/**
 * Spec section 5's rule, as the request schemas already apply it (HIGHLIGHT_TEXT_PATTERN): checked here too
 * so that a caller not coming through a route (a job, a batch) can't store a highlight the reader refuses.
 */
function checkHighlightText(text: string | undefined): void {
  if (text !== undefined && !isHighlightSelection(text)) throw badRequest(SERVER_ERRORS.highlightTooShort);
}

export async function createHighlight(
  db: Queryable,
  userId: string,
  body: CreateHighlightBody,
): Promise<Highlight> {
  return await db.transaction(async (tx) => {
    const replayed = await replayedCreate(
      tx,
      userId,
      'highlight',
      body.id,
      async (id) => await findHighlight(tx, id),
      SERVER_ERRORS.highlightNotFound,
    );
    if (replayed) return toHighlight(replayed);
    await getArticle(tx, userId, body.articleId);
    checkHighlightText(body.highlightedText);
    checkPositions(body.positionStart, body.positionEnd);
    const id = body.id ?? newId();
    const at = nowIso();
    await tx.orm.insert(tx.tables.highlights).values({
      id,
      userId,
      articleId: body.articleId,
      highlightedText: body.highlightedText,
      contextBefore: body.contextBefore ?? '',
      contextAfter: body.contextAfter ?? '',
      positionStart: body.positionStart,
      positionEnd: body.positionEnd,
      color: HIGHLIGHT_COLOR,
      createdAt: at,
      updatedAt: at,
    });
    return await getHighlight(tx, userId, id);
  });
}

export async function updateHighlight(
  db: Queryable,
  userId: string,
  highlightId: string,
  body: UpdateHighlightBody,
): Promise<Highlight> {
  return await db.transaction(async (tx) => {
    const current = await getHighlight(tx, userId, highlightId);
    checkHighlightText(body.highlightedText);
    checkPositions(body.positionStart ?? current.position_start, body.positionEnd ?? current.position_end);
    const { highlightedText, contextBefore, contextAfter, positionStart, positionEnd } = body;
    const changes = { highlightedText, contextBefore, contextAfter, positionStart, positionEnd };
    // Only the fields sent: drizzle leaves out the ones left undefined.
    if (Object.values(changes).every((value) => value === undefined)) return current;
    const { highlights } = tx.tables;
    await tx.orm
      .update(highlights)
      .set({ ...changes, updatedAt: nowIso() })
      .where(eq(highlights.id, highlightId));
    return await getHighlight(tx, userId, highlightId);
  });
}

export async function deleteHighlight(db: Queryable, userId: string, highlightId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await getHighlight(tx, userId, highlightId);
    await tx.orm.delete(tx.tables.highlights).where(eq(tx.tables.highlights.id, highlightId));
  });
}

/**
 * Full-text search over the caller's highlights, best match first: ranked by each engine's index
 * (services/search-sqlite.ts, db/postgres/search.ts). `onlyIf`: a condition the highlights' rows are read
 * under as well (the session's, for the route).
 */
export async function searchHighlights(
  db: Queryable,
  userId: string,
  text: string,
  onlyIf?: SQL,
): Promise<Highlight[]> {
  const ids =
    db.dialect === 'sqlite'
      ? await rankedHighlightIds(db, userId, text)
      : await searchHighlightIds(db, userId, text);
  if (ids.length === 0) return [];
  const { highlights } = db.tables;
  const rows = await selectHighlights(db).where(
    and(inArray(highlights.id, ids), eq(highlights.userId, userId), onlyIf),
  );
  const rank = new Map(ids.map((id, index) => [id, index]));
  return rows.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!).map(toHighlight);
}

/** GET /highlights/search's highlights, the token's session asked in the query that reads them. */
export function searchHighlightsOfSession(
  db: Queryable,
  claims: TokenClaims,
  text: string,
): Promise<Highlight[]> {
  return foundInSession(db, claims, (sessionIsActive) =>
    searchHighlights(db, claims.sub, text, sessionIsActive),
  );
}
