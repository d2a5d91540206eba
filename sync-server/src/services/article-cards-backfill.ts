// The cards of articles saved before cards were stored (migration 0012): stored once, in the background,
// so that the whole list and search read every article's card (article-cards.ts) instead of building the
// old articles' from their columns at every request. An article changed since has its card already: each
// change stores it.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/connection';
import { asColumn, select } from '../db/typed-select';
import type { JobHandler } from '../jobs/job-queue';
import { readArticleCards } from './article-cards';
import type { ServiceContext } from './context';
import { onceForServer } from './server-markers';

export const FILL_ARTICLE_CARDS_JOB = 'fill-article-cards';
/** The one-time queuing of FILL_ARTICLE_CARDS_JOB for every user. */
export const CARDS_BACKFILL_MARKER = 'article-cards-backfill';
/** Articles whose cards are built and stored in one transaction. */
const CARDS_PER_TRANSACTION = 500;

/**
 * Once per server (a marker row says it ran): a job for each user to store their articles' missing cards.
 * Start-up reads no article for it: the jobs look, each among its own user's articles.
 */
export async function queueCardsBackfill(db: Queryable): Promise<void> {
  await onceForServer(db, CARDS_BACKFILL_MARKER, async (tx, at) => {
    // `WHERE true`: SQLite would read ON CONFLICT right after FROM users as the start of a join.
    await tx.run(sql`INSERT INTO jobs (kind, key, user_id, group_id, payload, status, attempts, run_after, created_at, updated_at)
       SELECT ${FILL_ARTICLE_CARDS_JOB}, id, id, NULL, '{}', 'queued', 0, ${at}, ${at}, ${at} FROM users
        WHERE true
       ON CONFLICT (kind, key) DO NOTHING`);
  });
}

/**
 * The job: the user's articles without a stored card, oldest first, CARDS_PER_TRANSACTION at a time, each
 * card built from the article's columns and read in the transaction that stores it. A card a change stored
 * meanwhile is newer and kept (DO NOTHING); a change committing after this one replaces this card with its
 * own. Run again (its node died), it finds only the articles still without one.
 */
export function fillArticleCards(ctx: ServiceContext): JobHandler {
  return async (job) => {
    const userId = job.user_id;
    let after = 0;
    for (;;) {
      const last = await ctx.db.transaction(async (tx) => {
        const { articles, articleCards } = tx.tables;
        const missing = await select(
          tx,
          { seq: asColumn(articles.seq, sql`a.seq`), id: asColumn(articles.id, sql`a.id`) },
          sql`FROM articles a WHERE a.user_id = ${userId} AND a.seq > ${after}
               AND NOT EXISTS (SELECT 1 FROM article_cards ac WHERE ac.article_id = a.id)
             ORDER BY a.seq LIMIT ${CARDS_PER_TRANSACTION}`,
        );
        const cards = await readArticleCards(
          tx,
          userId,
          missing.map((row) => row.id),
        );
        const values = [...cards].map(([articleId, card]) => ({ articleId, card: card.toString('utf8') }));
        if (values.length > 0)
          await tx.orm
            .insert(articleCards)
            .values(values)
            .onConflictDoNothing({ target: articleCards.articleId });
        return missing.length < CARDS_PER_TRANSACTION ? undefined : missing.at(-1)?.seq;
      });
      if (last === undefined) return;
      after = last;
    }
  };
}
