// The dashboard's list read in pages straight from IndexedDB: every article row carries, in one
// multi-entry index (`list_keys`), one key per list it belongs to and per order. A key is the list's
// prefix (tag or none, archived, favorites-only or not, read state or any) followed by what the order
// sorts by, so a list in an order is one key range already sorted by the database: its count is the
// range's count, and the rows at any offset are a cursor advanced to it, whatever the library's size.
// The keys are computed from the row by the middleware below on every write of an article row (a local
// edit, a sync, an import, an upgrade), so they can't disagree with the row.
import type { DBCore, Middleware } from 'dexie';
import { tagNameKey, type ArticlesQuery } from '@lectern/shared-schema';
import { titleKey, type ArticleOrder } from '../reads/article-order';

export const LIST_KEYS_INDEX = 'list_keys';

/** Ends the list's part of a key: no tag key or flag holds it. */
const SEPARATOR = '\u0000';
/** Above every character a key's sortable part holds (titleKey drops it). */
const END = '\uffff';
/** The list without a tag. */
const NO_TAG = '';

interface ListedRow {
  fetch_state?: string | null;
  images_pending?: boolean;
  title?: string;
  created_at?: string;
  is_archived?: boolean;
  is_favorite?: boolean;
  is_read?: boolean;
  tag_keys?: readonly string[];
}

/**
 * The key of every row the server is still working on (its page fetched, or its images archived): the sync
 * looks again soon while one is (a count of one key, not a walk over the library).
 */
export const PENDING_FETCH_KEY = '\u0001pending';

/** The dashboard's filters a list key can stand for: archived always said, as the dashboard says it. */
export type ListQuery = Pick<ArticlesQuery, 'favorite' | 'is_read' | 'tag_name'> & { archived: boolean };

/** Whether `listRange` can answer `query`: archived said, favorites only when true (the dashboard's own). */
export function isListQuery(query: ArticlesQuery): query is ListQuery {
  return query.archived !== undefined && query.favorite !== false;
}

function listPrefix(tag: string, archived: boolean, favorite: boolean, isRead: boolean | undefined) {
  const read = isRead === undefined ? '*' : isRead ? 'r' : 'u';
  return `${tag}${SEPARATOR}${archived ? 'a' : '-'}${favorite ? 'f' : '*'}${read}`;
}

/**
 * Created times as a string that sorts them the other way: each digit d becomes 9 - d (ISO times of the
 * same shape differ only in digits). A-Z lists the newest first among equal titles.
 */
function newestFirstKey(createdAt: string): string {
  return createdAt.replace(/\d/g, (digit) => String(9 - Number(digit)));
}

/** Every key of a row: each list it belongs to (with and without each of its tags), in each order. */
export function listKeysOf(row: ListedRow): string[] {
  // Rows written by tests or older versions may lack a field: they still get keys, never a throw.
  const createdAt = row.created_at ?? '';
  const byDate = `d${createdAt}`;
  const byTitle = `t${titleKey(row.title ?? '')}${SEPARATOR}${newestFirstKey(createdAt)}`;
  const keys: string[] = [];
  for (const tag of new Set([NO_TAG, ...(row.tag_keys ?? [])])) {
    for (const favorite of row.is_favorite ? [false, true] : [false]) {
      for (const isRead of [undefined, row.is_read === true]) {
        const prefix = listPrefix(tag, row.is_archived === true, favorite, isRead);
        keys.push(prefix + byDate, prefix + byTitle);
      }
    }
  }
  if (row.fetch_state === 'pending' || row.images_pending === true) keys.push(PENDING_FETCH_KEY);
  return keys;
}

/**
 * The key range of a list in an order, and the direction to walk it: ties are walked by id as the index
 * keeps them (ascending), which is compareNewestFirst's order backwards, oldest's forwards and A-Z's.
 */
export function listRange(
  query: ListQuery,
  order: ArticleOrder,
): { lower: string; upper: string; reverse: boolean } {
  const tag = query.tag_name === undefined ? NO_TAG : tagNameKey(query.tag_name);
  const prefix =
    listPrefix(tag, query.archived, query.favorite === true, query.is_read) + (order === 'title' ? 't' : 'd');
  return { lower: prefix, upper: prefix + END, reverse: order === 'newest' };
}

/** Adds `list_keys` to every article row written (a copy: the caller's object stays as it was). */
export const listKeysMiddleware: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'ListKeys',
  create(down) {
    return {
      ...down,
      table(name) {
        const table = down.table(name);
        if (name !== 'articles') return table;
        return {
          ...table,
          mutate(req) {
            if (req.type !== 'add' && req.type !== 'put') return table.mutate(req);
            const values = req.values.map((value: ListedRow) => ({ ...value, list_keys: listKeysOf(value) }));
            return table.mutate({ ...req, values });
          },
        };
      },
    };
  },
};
