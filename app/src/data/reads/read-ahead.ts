// The first screen's list, read as soon as the data layer loads, beside the session's user and the first
// render: the dashboard's grid starts from it instead of asking for it only once it has rendered (a chain of
// round trips the first cards waited for, most of the time from the database's opening to the first card).
// Taken once, only soon after the start, and never after the device's data was wiped (a sign-out, another
// user's sign-in): any later view of the list reads it live, as always.
import type { ArticlesQuery } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import type { ArticleOrder } from './article-order';
import { pageArticles, type ArticlePage } from './article-pages';
import { listKeyOf } from './list-key';

/** How long a read-ahead stays to be taken: a screen showing later reads its list itself. */
export const READ_AHEAD_KEPT_MS = 3_000;

export interface ReadAhead {
  /** The page once it has answered. */
  answered: ArticlePage | undefined;
  /** Settles with the page, or undefined if the read failed (the live read meets and reports it). */
  answer: Promise<ArticlePage | undefined>;
}

function keyOf(query: ArticlesQuery, order: ArticleOrder, start: number, end: number): string {
  return JSON.stringify([listKeyOf(query, order), start, end]);
}

export function createReadAhead(db: LecternDb, now: () => number = () => performance.now()) {
  let ahead: { key: string; at: number; wipes: number; read: ReadAhead } | null = null;
  return {
    /**
     * Reads the rows [start, end) of the list in `order` now, for the screen about to show them; answers
     * when the read is done.
     */
    start(query: ArticlesQuery, order: ArticleOrder, start: number, end: number): Promise<void> {
      const read: ReadAhead = {
        answered: undefined,
        answer: pageArticles(db, query, order, start, end).then(
          (page) => (read.answered = page),
          () => undefined,
        ),
      };
      ahead = { key: keyOf(query, order, start, end), at: now(), wipes: db.wipes, read };
      return read.answer.then(() => undefined);
    },
    /**
     * The read started for exactly this list and range, once, if it was started a moment ago and the
     * device's data was not wiped since.
     */
    take(query: ArticlesQuery, order: ArticleOrder, start: number, end: number): ReadAhead | undefined {
      const taken = ahead;
      if (taken?.key !== keyOf(query, order, start, end)) return undefined;
      ahead = null;
      const fresh = now() - taken.at <= READ_AHEAD_KEPT_MS && db.wipes === taken.wipes;
      return fresh ? taken.read : undefined;
    },
  };
}
