// Highlights: passages of an article, with the context that finds them again, and their stats.
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
import type { Db } from '../db/connection';
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

function query(db: Db, where: string, ...params: unknown[]): Highlight[] {
  return (db.statement(`${HIGHLIGHT_SELECT} ${where}`).all(...params) as HighlightRow[]).map(toHighlight);
}

export function highlightStats(db: Db, userId: string, now = new Date()): HighlightStats {
  const rows = db
    .statement('SELECT article_id, created_at FROM highlights WHERE user_id = ?')
    .all(userId) as {
    article_id: string;
    created_at: string;
  }[];
  return computeHighlightStats(rows, now);
}

export function listHighlights(db: Db, userId: string): { highlights: Highlight[]; stats: HighlightStats } {
  return {
    highlights: query(db, 'WHERE h.user_id = ? ORDER BY h.created_at DESC, h.id DESC', userId),
    stats: highlightStats(db, userId),
  };
}

export function articleHighlights(db: Db, userId: string, articleId: string): Highlight[] {
  getArticle(db, userId, articleId);
  return query(
    db,
    'WHERE h.user_id = ? AND h.article_id = ? ORDER BY h.position_start, h.created_at',
    userId,
    articleId,
  );
}

export function recentHighlights(db: Db, userId: string, limit: number): Highlight[] {
  return query(db, 'WHERE h.user_id = ? ORDER BY h.created_at DESC, h.id DESC LIMIT ?', userId, limit);
}

function findHighlight(db: Db, highlightId: string): HighlightRow | undefined {
  return db.statement(`${HIGHLIGHT_SELECT} WHERE h.id = ?`).get(highlightId) as HighlightRow | undefined;
}

export function getHighlight(db: Db, userId: string, highlightId: string): Highlight {
  const row = findHighlight(db, highlightId);
  if (!row || row.user_id !== userId) throw notFound(SERVER_ERRORS.highlightNotFound);
  return toHighlight(row);
}

/** The caller's highlight, or undefined when it doesn't exist or is someone else's. */
export function findHighlightFor(db: Db, userId: string, highlightId: string): Highlight | undefined {
  const row = findHighlight(db, highlightId);
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

export function createHighlight(db: Db, userId: string, body: CreateHighlightBody): Highlight {
  return db.transaction(() => {
    const replayed = replayedCreate(
      db,
      userId,
      'highlight',
      body.id,
      (id) => findHighlight(db, id),
      SERVER_ERRORS.highlightNotFound,
    );
    if (replayed) return toHighlight(replayed);
    getArticle(db, userId, body.articleId);
    checkHighlightText(body.highlightedText);
    checkPositions(body.positionStart, body.positionEnd);
    const id = body.id ?? newId();
    const at = nowIso();
    db.statement(
      `INSERT INTO highlights (id, user_id, article_id, highlighted_text, context_before, context_after,
         position_start, position_end, color, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      userId,
      body.articleId,
      body.highlightedText,
      body.contextBefore ?? '',
      body.contextAfter ?? '',
      body.positionStart,
      body.positionEnd,
      HIGHLIGHT_COLOR,
      at,
      at,
    );
    return getHighlight(db, userId, id);
  });
}

const UPDATABLE = {
  highlightedText: 'highlighted_text',
  contextBefore: 'context_before',
  contextAfter: 'context_after',
  positionStart: 'position_start',
  positionEnd: 'position_end',
} as const;

export function updateHighlight(
  db: Db,
  userId: string,
  highlightId: string,
  body: UpdateHighlightBody,
): Highlight {
  return db.transaction(() => {
    const current = getHighlight(db, userId, highlightId);
    checkHighlightText(body.highlightedText);
    checkPositions(body.positionStart ?? current.position_start, body.positionEnd ?? current.position_end);
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [field, column] of Object.entries(UPDATABLE) as [keyof typeof UPDATABLE, string][]) {
      if (body[field] === undefined) continue;
      sets.push(`${column} = ?`);
      params.push(body[field]);
    }
    if (sets.length === 0) return current;
    db.statement(`UPDATE highlights SET ${sets.join(', ')}, updated_at = ? WHERE id = ?`).run(
      ...params,
      nowIso(),
      highlightId,
    );
    return getHighlight(db, userId, highlightId);
  });
}

export function deleteHighlight(db: Db, userId: string, highlightId: string): void {
  db.transaction(() => {
    getHighlight(db, userId, highlightId);
    db.statement('DELETE FROM highlights WHERE id = ?').run(highlightId);
  });
}

/**
 * Full-text search over the caller's highlights, best match first. The owner is part of the MATCH (see
 * migration 0004), so only the caller's matches are walked and ranked, never every user's.
 */
export function searchHighlights(db: Db, userId: string, text: string): Highlight[] {
  const terms = ftsMatchExpression(text);
  const owner = searchTerms(userId).at(-1);
  if (!terms || !owner) return [];
  const match = `user_id : "${owner}" AND {highlighted_text article_title} : (${terms})`;
  const rows = db
    .statement(
      `SELECT ${HIGHLIGHT_COLUMNS} FROM (SELECT rowid, rank FROM highlights_fts WHERE highlights_fts MATCH ?) f
       JOIN highlights h ON h.seq = f.rowid JOIN articles a ON a.id = h.article_id
       WHERE h.user_id = ? ORDER BY f.rank, h.created_at DESC LIMIT ?`,
    )
    .all(match, userId, SEARCH_RESULT_LIMIT) as HighlightRow[];
  return rows.map(toHighlight);
}
