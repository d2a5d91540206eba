// Highlights: passages of an article, with the context that finds them again, and their stats.
import { eq, sql, type SQL } from 'drizzle-orm';
import {
  computeHighlightStats,
  ftsMatchExpression,
  HIGHLIGHT_COLOR,
  isHighlightSelection,
  newId,
  SEARCH_RESULT_LIMIT,
  searchTerms,
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
import { badRequest, notFound } from './errors';

const HIGHLIGHT_COLUMNS = `h.id, h.user_id, h.article_id, h.highlighted_text, h.context_before, h.context_after,
  h.position_start, h.position_end, h.color, h.created_at, h.updated_at,
  a.title AS article_title, a.image_url AS article_image`;
const HIGHLIGHT_SELECT = `SELECT ${HIGHLIGHT_COLUMNS} FROM highlights h JOIN articles a ON a.id = h.article_id`;

type HighlightRow = Highlight & { user_id: string };

const toHighlight = ({ user_id: _owner, ...highlight }: HighlightRow): Highlight => ({
  ...highlight,
  color: HIGHLIGHT_COLOR,
});

/** The highlights `where` (a WHERE, ORDER BY and LIMIT over `highlights h` joined to `articles a`) picks. */
async function query(db: Queryable, where: SQL): Promise<Highlight[]> {
  return (await db.all<HighlightRow>(sql`${sql.raw(HIGHLIGHT_SELECT)} ${where}`)).map(toHighlight);
}

export async function highlightStats(
  db: Queryable,
  userId: string,
  now = new Date(),
): Promise<HighlightStats> {
  const rows = (await db.all(
    sql`SELECT article_id, created_at FROM highlights WHERE user_id = ${userId}`,
  )) as {
    article_id: string;
    created_at: string;
  }[];
  return computeHighlightStats(rows, now);
}

export async function listHighlights(
  db: Queryable,
  userId: string,
): Promise<{ highlights: Highlight[]; stats: HighlightStats }> {
  return {
    highlights: await query(db, sql`WHERE h.user_id = ${userId} ORDER BY h.created_at DESC, h.id DESC`),
    stats: await highlightStats(db, userId),
  };
}

export async function articleHighlights(
  db: Queryable,
  userId: string,
  articleId: string,
): Promise<Highlight[]> {
  await getArticle(db, userId, articleId);
  return await query(
    db,
    sql`WHERE h.user_id = ${userId} AND h.article_id = ${articleId} ORDER BY h.position_start, h.created_at`,
  );
}

export async function recentHighlights(db: Queryable, userId: string, limit: number): Promise<Highlight[]> {
  return await query(
    db,
    sql`WHERE h.user_id = ${userId} ORDER BY h.created_at DESC, h.id DESC LIMIT ${limit}`,
  );
}

async function findHighlight(db: Queryable, highlightId: string): Promise<HighlightRow | undefined> {
  return (await db.get(sql`${sql.raw(HIGHLIGHT_SELECT)} WHERE h.id = ${highlightId}`)) as
    HighlightRow | undefined;
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
    await tx.run(sql`INSERT INTO highlights (id, user_id, article_id, highlighted_text, context_before, context_after,
         position_start, position_end, color, created_at, updated_at) VALUES (${id}, ${userId}, ${body.articleId}, ${body.highlightedText}, ${body.contextBefore ?? ''}, ${body.contextAfter ?? ''}, ${body.positionStart}, ${body.positionEnd}, ${HIGHLIGHT_COLOR}, ${at}, ${at})`);
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
    await tx.run(sql`DELETE FROM highlights WHERE id = ${highlightId}`);
  });
}

/**
 * Full-text search over the caller's highlights, best match first. The owner is part of the MATCH (see
 * migration 0004), so only the caller's matches are walked and ranked, never every user's.
 */
export async function searchHighlights(db: Queryable, userId: string, text: string): Promise<Highlight[]> {
  const terms = ftsMatchExpression(text);
  const owner = searchTerms(userId).at(-1);
  if (!terms || !owner) return [];
  const match = `user_id : "${owner}" AND {highlighted_text article_title} : (${terms})`;
  const rows =
    (await db.all(sql`SELECT ${sql.raw(HIGHLIGHT_COLUMNS)} FROM (SELECT rowid, rank FROM highlights_fts WHERE highlights_fts MATCH ${match}) f
       JOIN highlights h ON h.seq = f.rowid JOIN articles a ON a.id = h.article_id
       WHERE h.user_id = ${userId} ORDER BY f.rank, h.created_at DESC LIMIT ${SEARCH_RESULT_LIMIT}`)) as HighlightRow[];
  return rows.map(toHighlight);
}
