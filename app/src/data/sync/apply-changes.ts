// Applies one page of the server's change feed to the device, then puts the device's own unpushed writes
// back on top, so a pull never hides an edit the server hasn't had yet.
import type { Article, Change, Highlight, ListArticle, ReadingList, Tag } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import type { MetaValues } from '../db/rows';
import {
  deleteArticleLocally,
  putArticles,
  putHighlights,
  refreshHighlightCounts,
  renameTagEverywhere,
  tagKey,
} from '../db/local-store';
import { stageCards } from '../db/staged-cards';
import { reapplyOutbox } from '../outbox/outbox';

/** Only the last change of each entity matters: every change carries the entity's whole state. */
function latestChanges(changes: readonly Change[]): Change[] {
  const latest = new Map<string, Change>();
  for (const change of changes) {
    const key = `${change.entity}/${change.id}`;
    latest.delete(key);
    latest.set(key, change);
  }
  return [...latest.values()];
}

function upsertsOf<T>(changes: readonly Change[], entity: Change['entity']): T[] {
  // The feed's `entity` names the row's type (DESIGN.md section 3).
  return changes.filter((c) => c.entity === entity && c.op === 'upsert' && c.row).map((c) => c.row as T);
}

function deletedIdsOf(changes: readonly Change[], entity: Change['entity']): string[] {
  return changes.filter((c) => c.entity === entity && c.op === 'delete').map((c) => c.id);
}

/** The first sync's progress written with the page, and whether its cards are staged. */
export type ApplyOptions = Partial<Pick<MetaValues, 'cardsPull' | 'bodiesWanted'>> & { stageCards?: boolean };

/**
 * Stores the page and the new cursor in one transaction: a crash never leaves half a page behind. `meta`
 * is written in the same transaction (the first sync's progress).
 */
export async function applyChanges(
  db: LecternDb,
  changes: readonly Change[],
  cursor: number,
  options: ApplyOptions = {},
): Promise<void> {
  const { stageCards: _stage, ...meta } = options;
  const latest = latestChanges(changes);
  await db.transaction('rw', [...db.dataTables, db.article_counts], async () => {
    // A renamed or deleted tag changes the articles carrying it, also those that carry it only through a
    // write of this device the server hasn't had (the server can't re-send those). Tags go before the
    // article rows: the server re-sends every article a tag change touched, and its row is the truth. Done
    // the other way round, a tag deleted and then made again under the same name would take that name off
    // the articles the new tag was just attached to.
    // Read and written in bulk, not a round trip each: a first sync brings a library's hundreds of tags.
    const deletedTags = deletedIdsOf(latest, 'tag');
    const gone = await db.tags.bulkGet(deletedTags);
    await db.tags.bulkDelete(deletedTags);
    for (const before of gone) if (before) await renameTagEverywhere(db, before.name_key, null);
    const tags = upsertsOf<Tag>(latest, 'tag');
    const renamed = await db.tags.bulkGet(tags.map((tag) => tag.id));
    await db.tags.bulkPut(
      tags.map(({ id, name, created_at }) => ({ id, name, name_key: tagKey(name), created_at })),
    );
    for (const [i, { name }] of tags.entries()) {
      const before = renamed[i];
      if (before && before.name !== name) await renameTagEverywhere(db, before.name_key, name);
    }

    // Cards (a first sync's feed) come without their body: one kept from before may be older than the card.
    // A first sync stages them a page at a time (db/staged-cards.ts), but for articles it already has.
    const articles = upsertsOf<Article>(latest, 'article');
    const written = options.stageCards ? await stageCards(db, articles) : articles;
    await putArticles(db, written, true);
    for (const id of deletedIdsOf(latest, 'article')) await deleteArticleLocally(db, id);

    const lists = upsertsOf<ReadingList>(latest, 'list');
    await db.lists.bulkPut(lists.map(({ article_count: _count, ...list }) => list));
    const deletedLists = deletedIdsOf(latest, 'list');
    await db.lists.bulkDelete(deletedLists);
    for (const id of deletedLists) await db.list_articles.where('list_id').equals(id).delete();

    const places = latest.filter((c) => c.entity === 'list_article' && c.op === 'upsert' && c.row);
    await db.list_articles.bulkPut(
      places.map((change) => ({ ...(change.row as ListArticle), key: change.id })),
    );
    await db.list_articles.bulkDelete(deletedIdsOf(latest, 'list_article'));

    const highlights = upsertsOf<Highlight>(latest, 'highlight');
    await putHighlights(db, highlights);
    await db.highlights.bulkDelete(deletedIdsOf(latest, 'highlight'));

    // The server re-sends an article whose highlight count changed, so pulled counts are right for the
    // server's highlights; only the device's own unpushed highlights change them again.
    await refreshHighlightCounts(db, await reapplyOutbox(db));
    await db.setMeta('cursor', cursor);
    if (meta.cardsPull !== undefined) await db.setMeta('cardsPull', meta.cardsPull);
    if (meta.bodiesWanted !== undefined) await db.setMeta('bodiesWanted', meta.bodiesWanted);
  });
}
