// GET /lists and /lists/{id} from the device; article_count counts the device's places in each list.
import { SERVER_ERRORS, type ReadingList } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import { orderedPlaces } from '../db/local-store';
import type { ListRow } from '../db/rows';
import { pendingSaves, toSummary, type LocalArticleSummary } from './article-reads';
import { notFound } from './not-found';

function toList(row: ListRow, articleCount: number): ReadingList {
  return { ...row, article_count: articleCount };
}

/** Newest first, ties by id, as the server lists them. */
export async function listLists(db: LecternDb): Promise<{ lists: ReadingList[] }> {
  const [rows, placeListIds] = await Promise.all([
    db.lists.toArray(),
    db.list_articles.orderBy('list_id').keys(),
  ]);
  const counts = new Map<string, number>();
  for (const key of placeListIds) counts.set(String(key), (counts.get(String(key)) ?? 0) + 1);
  rows.sort((a, b) =>
    a.created_at !== b.created_at
      ? a.created_at < b.created_at
        ? 1
        : -1
      : a.id < b.id
        ? 1
        : a.id > b.id
          ? -1
          : 0,
  );
  return { lists: rows.map((row) => toList(row, counts.get(row.id) ?? 0)) };
}

export async function getList(
  db: LecternDb,
  id: string,
): Promise<{ list: ReadingList; articles: LocalArticleSummary[] }> {
  const row = await db.lists.get(id);
  if (!row) throw notFound(SERVER_ERRORS.listNotFound);
  const places = await orderedPlaces(db, id);
  const [rows, saves] = await Promise.all([
    db.articles.bulkGet(places.map((p) => p.article_id)),
    pendingSaves(db),
  ]);
  const articles = rows.flatMap((article) => (article ? [toSummary(article, saves)] : []));
  return { list: toList(row, places.length), articles };
}
