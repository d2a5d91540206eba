// The outbox: writes made on this device, in order, until the server has them. A write applies to the
// tables and joins the outbox in one transaction, so the screen and the queue never disagree.
import { newId, nowIso } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import { deleteArticleLocally, refreshHighlightCounts } from '../db/local-store';
import type { OutboxRow } from '../db/rows';
import { applyOperation } from './local-effects';
import { createdIdOf, entityIdsOf, type Operation } from './operations';

/** Applies the writes locally and queues them for the server, all or nothing. */
export async function recordWrites(db: LecternDb, ops: readonly Operation[]): Promise<void> {
  const at = nowIso();
  await db.transaction('rw', db.dataTables, async () => {
    for (const op of ops) {
      await applyOperation(db, op, at);
      await db.outbox.add({
        op,
        key: newId(),
        status: 'pending',
        error: null,
        status_code: null,
        attempts: 0,
        created_at: at,
        ids: entityIdsOf(op),
      });
    }
  });
}

/**
 * The writes whose effect the device shows: every pending one, and refused creates, which stay visible
 * with their reason until the user retries or deletes them.
 */
export function isShownLocally(row: OutboxRow): boolean {
  return row.status === 'pending' || createdIdOf(row.op) !== undefined;
}

/** Inside a transaction: applies the outbox again on top of rows just pulled from the server. */
export async function reapplyOutbox(db: LecternDb): Promise<Set<string>> {
  const touched = new Set<string>();
  const rows = await db.outbox.orderBy('seq').toArray();
  for (const row of rows) {
    if (!isShownLocally(row)) continue;
    await applyOperation(db, row.op, row.created_at);
    for (const id of row.ids) touched.add(id);
  }
  return touched;
}

/** Removes the local trace of a create the server will never hold. */
async function undoCreate(db: LecternDb, op: Operation): Promise<void> {
  switch (op.kind) {
    case 'createArticle':
      return deleteArticleLocally(db, op.body.id);
    case 'createScreenshot':
      return deleteArticleLocally(db, op.id);
    case 'createTag':
      await db.tags.delete(op.body.id);
      return;
    case 'createList':
      await db.lists.delete(op.body.id);
      await db.list_articles.where('list_id').equals(op.body.id).delete();
      return;
    case 'createHighlight':
      await db.highlights.delete(op.body.id);
      return refreshHighlightCounts(db, [op.body.articleId]);
    default:
      return;
  }
}

/**
 * Drops a write for good (the user deleted a refused save, or the server says its target is gone). A
 * dropped create takes its entity and every later write that needed it along.
 */
export async function dropEntry(db: LecternDb, seq: number): Promise<void> {
  await db.transaction('rw', db.dataTables, async () => {
    const row = await db.outbox.get(seq);
    if (!row) return;
    await db.outbox.delete(seq);
    const created = createdIdOf(row.op);
    if (created === undefined) return;
    await undoCreate(db, row.op);
    const dependents = await db.outbox.where('ids').equals(created).primaryKeys();
    await db.outbox.bulkDelete(dependents);
  });
}

/**
 * Puts a refused write back in the queue (the user chose Retry), under a new Idempotency-Key: the server
 * remembers the refusal under the old one.
 */
export async function retryEntry(db: LecternDb, seq: number): Promise<void> {
  await db.outbox.update(seq, {
    status: 'pending',
    error: null,
    status_code: null,
    attempts: 0,
    key: newId(),
  });
}

/** The pending or refused save of an article, if any: a screen offers Retry and Delete for it. */
export async function saveEntryOf(db: LecternDb, articleId: string): Promise<OutboxRow | undefined> {
  const rows = await db.outbox.where('ids').equals(articleId).toArray();
  return rows.find((row) => createdIdOf(row.op) === articleId);
}

/**
 * The server answered a tag create with the tag it already had under that name: writes queued against
 * our id now name the server's, and our duplicate row goes.
 */
export async function remapTagId(db: LecternDb, ourId: string, serverId: string): Promise<void> {
  await db.transaction('rw', db.dataTables, async () => {
    const rows = await db.outbox.where('ids').equals(ourId).toArray();
    for (const row of rows) {
      const op = row.op;
      if (op.kind === 'attachTag' || op.kind === 'detachTag') {
        const remapped: Operation = { ...op, tagId: serverId };
        await db.outbox.put({ ...row, op: remapped, ids: entityIdsOf(remapped) });
      } else if (op.kind === 'renameTag' || op.kind === 'deleteTag') {
        const remapped: Operation = { ...op, id: serverId };
        await db.outbox.put({ ...row, op: remapped, ids: entityIdsOf(remapped) });
      }
    }
    await db.tags.delete(ourId);
  });
}

/** The same write aimed at the server's article instead of our placeholder; null when it should go. */
function retargetArticle(op: Operation, ourId: string, serverId: string): Operation | null {
  const swap = (id: string) => (id === ourId ? serverId : id);
  switch (op.kind) {
    case 'updateArticle':
      return { ...op, id: swap(op.id) };
    case 'deleteArticle':
      // Deleting the copy made on this device must not delete the article the library already held, with
      // its highlights: the user removed a duplicate save, not the original.
      return op.id === ourId ? null : op;
    case 'attachTag':
    case 'detachTag':
    case 'removeListArticle':
      return { ...op, articleId: swap(op.articleId) };
    case 'addListArticle':
      return { ...op, body: { ...op.body, articleId: swap(op.body.articleId) } };
    case 'reorderList':
      return { ...op, body: { articles: [...new Set(op.body.articles.map(swap))] } };
    case 'createHighlight':
      return { ...op, body: { ...op.body, articleId: swap(op.body.articleId) } };
    default:
      return op;
  }
}

/**
 * The server answered a save made on this device with the article it already had at that address (200,
 * "Already in your library"), under another id: the placeholder goes, and the writes queued against it
 * (tags, highlights, list places, flags) now name the server's article, which the caller has stored.
 */
export async function remapArticleId(db: LecternDb, ourId: string, serverId: string): Promise<void> {
  if (ourId === serverId) return;
  await db.transaction('rw', db.dataTables, async () => {
    const rows = await db.outbox.where('ids').equals(ourId).toArray();
    for (const row of rows) {
      if (row.seq === undefined) continue;
      const remapped = retargetArticle(row.op, ourId, serverId);
      if (remapped === null) await db.outbox.delete(row.seq);
      else await db.outbox.put({ ...row, op: remapped, ids: entityIdsOf(remapped) });
    }
    // Pending highlights and list places come back under the server's id when the outbox is reapplied.
    await deleteArticleLocally(db, ourId);
    await reapplyOutbox(db);
    await refreshHighlightCounts(db, [serverId]);
  });
}
