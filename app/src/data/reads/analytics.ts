// The analytics of spec section 9 from the device's data, computed as the server would
// (shared-schema's computeAnalytics) but read through indexes, so its cost follows the last months and
// the streak's days rather than the size of the library: the top tags from the kept counts, the saves of
// each month counted on the created_at index, the streak walked back on the updated_at index.
import {
  ANALYTICS_MONTHS,
  ANALYTICS_TOP_TAGS,
  STREAK_MAX_DAYS,
  type ReadingAnalytics,
  type Tag,
} from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import { listTags } from './tag-reads';

function localDayKey(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

function topTagsOf(tags: readonly Tag[]): ReadingAnalytics['topTags'] {
  return tags
    .filter((tag) => tag.article_count > 0)
    .sort((a, b) => b.article_count - a.article_count || a.name.localeCompare(b.name))
    .slice(0, ANALYTICS_TOP_TAGS)
    .map(({ name, article_count }) => ({ name, article_count }));
}

/** Articles saved in each of the last ANALYTICS_MONTHS local calendar months, oldest first. */
async function monthlySaved(db: LecternDb, now: Date): Promise<ReadingAnalytics['monthlySaved']> {
  const counts: Promise<number>[] = [];
  const months: string[] = [];
  for (let back = ANALYTICS_MONTHS - 1; back >= 0; back -= 1) {
    const start = new Date(now.getFullYear(), now.getMonth() - back, 1);
    const end = new Date(now.getFullYear(), now.getMonth() - back + 1, 1);
    months.push(localDayKey(start).slice(0, 7));
    counts.push(
      db.articles.where('created_at').between(start.toISOString(), end.toISOString(), true, false).count(),
    );
  }
  const answered = await Promise.all(counts);
  return months.map((month, i) => ({ month, count: answered[i]! }));
}

/**
 * Consecutive local days with a read article (by its updated_at), counted back from today, or from
 * yesterday when today has none yet: walks updated_at newest first and stops at the first day without one.
 */
async function readingStreak(db: LecternDb, now: Date): Promise<number> {
  const dayStart = (back: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - back);
  const readDays = new Set<string>();
  // Days before this one can't extend the streak unless a read article was found on the day after it.
  let floor = dayStart(1).getTime();
  await db.articles
    .where('updated_at')
    .below(dayStart(-1).toISOString())
    .reverse()
    .until((row) => new Date(row.updated_at).getTime() < floor)
    .each((row) => {
      if (!row.is_read) return;
      const day = new Date(row.updated_at);
      const key = localDayKey(day);
      if (readDays.has(key)) return;
      readDays.add(key);
      const back = Math.round(
        (dayStart(0).getTime() - new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime()) /
          86_400_000,
      );
      if (back + 1 < STREAK_MAX_DAYS) floor = Math.min(floor, dayStart(back + 1).getTime());
    });
  const has = (back: number) => readDays.has(localDayKey(dayStart(back)));
  let start = has(0) ? 0 : has(1) ? 1 : -1;
  let streak = 0;
  if (start >= 0) {
    while (start < STREAK_MAX_DAYS && has(start)) {
      streak += 1;
      start += 1;
    }
  }
  return streak;
}

export async function readingAnalytics(db: LecternDb, now = new Date()): Promise<ReadingAnalytics> {
  const [{ tags }, months, streak] = await Promise.all([
    listTags(db),
    monthlySaved(db, now),
    readingStreak(db, now),
  ]);
  return { topTags: topTagsOf(tags), monthlySaved: months, thisMonth: months.at(-1)!.count, streak };
}
