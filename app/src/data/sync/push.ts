// Replays the outbox to the server in order. A refused write (4xx) is marked failed and holds back only
// the later writes on the same entities; a network error, a server error (5xx, 429) or a 404 that isn't
// the API's own stops the push so that it is tried again later, in the same order.
import {
  MESSAGES,
  mergeOrder,
  newId,
  SERVER_ERRORS,
  type ArticleResponse,
  type ListWithArticlesResponse,
  type TagResponse,
} from '@lectern/shared-schema';
import { ApiError, NetworkError, type HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import type { OutboxRow } from '../db/rows';
import { putArticles } from '../db/local-store';
import { dropEntry, remapArticleId, remapTagId } from '../outbox/outbox';
import {
  createdIdOf,
  entityIdsOf,
  isArticleSave,
  isDelete,
  restCallOf,
  type Operation,
} from '../outbox/operations';
import { addRefreshTargets, noTargets, type RefreshTargets } from './refresh';
import { saveErrorMessage } from './save-errors';

interface PushCounts {
  pushed: number;
  /** What to read back from the server after the pull (see refresh.ts). */
  refresh: RefreshTargets;
}

export type PushResult =
  | ({ kind: 'done' } & PushCounts)
  /** Network down or server trouble: try again after a pause. */
  | ({ kind: 'retry'; retryAfterMs: number | null } & PushCounts)
  /** The session is gone: keep everything for the next sign-in. */
  | ({ kind: 'unauthorized' } & PushCounts);

async function screenshotForm(
  db: LecternDb,
  op: Extract<Operation, { kind: 'createScreenshot' }>,
): Promise<FormData> {
  const image = await db.screenshots.get(op.id);
  const form = new FormData();
  form.append('id', op.id);
  if (op.tags && op.tags.length > 0) form.append('tags', op.tags.join(','));
  // Without its image the upload is refused (400) and shows as a failed save, never lost in silence.
  if (image) form.append('screenshot', new Blob([image.bytes], { type: image.type }), image.name);
  return form;
}

async function send(http: HttpClient, db: LecternDb, row: OutboxRow): Promise<unknown> {
  const call = restCallOf(row.op);
  if (row.op.kind === 'createScreenshot') {
    return http.request(call.method, call.path, { form: await screenshotForm(db, row.op) });
  }
  const isCreate = createdIdOf(row.op) !== undefined;
  return http.request(call.method, call.path, {
    body: call.body,
    idempotencyKey: isCreate ? undefined : row.key,
  });
}

/**
 * A reorder made while another device added or removed articles of the list names a different set of
 * articles than the server has: apply the same order to the list as it is now.
 */
async function sendRebasedReorder(http: HttpClient, op: Extract<Operation, { kind: 'reorderList' }>) {
  const { articles } = await http.get<ListWithArticlesResponse>(`/lists/${encodeURIComponent(op.listId)}`);
  const order = mergeOrder(
    op.body.articles,
    articles.map((article) => article.id),
  );
  const call = restCallOf({ ...op, body: { articles: order } });
  return http.request(call.method, call.path, { body: call.body, idempotencyKey: newId() });
}

/**
 * A 404 in the API's own `{error}` shape on anything but a save means the target was deleted (on another
 * device): delete wins. Dropping a write is for good, so it takes the server's word for it.
 */
function isGone(op: Operation, error: ApiError): boolean {
  if (error.status !== 404 || error.serverMessage === null) return false;
  return !isArticleSave(op) || error.serverMessage === SERVER_ERRORS.articleNotFound;
}

function isRetryable(error: ApiError): boolean {
  // A 404 without the API's body came from something in between (a proxy mid-deploy, a captive portal):
  // the write waits and is tried again, like any other answer that isn't the server's.
  const notTheServer = error.status === 404 && error.serverMessage === null;
  return error.status >= 500 || error.status === 429 || error.status === 408 || notTheServer;
}

async function onSuccess(db: LecternDb, row: OutboxRow, response: unknown): Promise<void> {
  const { seq } = row;
  if (seq === undefined) return;
  await db.transaction('rw', db.dataTables, async () => {
    await db.outbox.delete(seq);
    if (row.op.kind === 'createScreenshot') await db.screenshots.delete(row.op.id);
  });
  if (row.op.kind === 'createTag') {
    const { tag } = response as TagResponse;
    if (tag && tag.id !== row.op.body.id) await remapTagId(db, row.op.body.id, tag.id);
  }
  if (row.op.kind === 'createArticle') {
    // The address was already in the library (200): the server answered its article, under its own id.
    const { article } = response as ArticleResponse;
    if (article && article.id !== row.op.body.id) {
      await putArticles(db, [article]);
      await remapArticleId(db, row.op.body.id, article.id);
    }
  }
}

/**
 * A refused write stays visible with its reason. A refused create the user has since deleted goes with
 * its delete: there is nothing left to show or to send.
 */
async function markFailed(db: LecternDb, row: OutboxRow & { seq: number }, error: ApiError): Promise<void> {
  const created = createdIdOf(row.op);
  if (created !== undefined) {
    const later = await db.outbox.where('ids').equals(created).toArray();
    if (later.some((entry) => isDelete(entry.op) && entityIdsOf(entry.op)[0] === created)) {
      await dropEntry(db, row.seq);
      return;
    }
  }
  const message = isArticleSave(row.op)
    ? saveErrorMessage(error)
    : (error.serverMessage ?? MESSAGES.saveFailed);
  await db.outbox.update(row.seq, {
    status: 'failed',
    error: message,
    status_code: error.status,
    attempts: row.attempts + 1,
  });
}

type EntryOutcome =
  'pushed' | 'dropped' | 'failed' | { stop: PushResult['kind']; retryAfterMs: number | null };

async function pushEntry(
  http: HttpClient,
  db: LecternDb,
  row: OutboxRow & { seq: number },
): Promise<EntryOutcome> {
  try {
    let response: unknown;
    try {
      response = await send(http, db, row);
    } catch (error) {
      const mismatch = error instanceof ApiError && error.serverMessage === SERVER_ERRORS.reorderMismatch;
      if (!(mismatch && row.op.kind === 'reorderList')) throw error;
      response = await sendRebasedReorder(http, row.op);
    }
    await onSuccess(db, row, response);
    return 'pushed';
  } catch (error) {
    if (error instanceof NetworkError) return { stop: 'retry', retryAfterMs: null };
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) return { stop: 'unauthorized', retryAfterMs: null };
    if (isRetryable(error)) {
      await db.outbox.update(row.seq, { attempts: row.attempts + 1 });
      return { stop: 'retry', retryAfterMs: error.retryAfterMs };
    }
    if (isGone(row.op, error)) {
      await dropEntry(db, row.seq);
      return 'dropped';
    }
    await markFailed(db, row, error);
    return 'failed';
  }
}

export async function pushOutbox(http: HttpClient, db: LecternDb): Promise<PushResult> {
  const seqs = await db.outbox.orderBy('seq').primaryKeys();
  const held = new Set<string>();
  const refresh = noTargets();
  let pushed = 0;
  for (const seq of seqs) {
    // Read afresh: the user may have deleted it meanwhile, or a tag create just remapped its ids.
    const row = await db.outbox.get(seq);
    if (!row) continue;
    if (row.status === 'failed' || row.ids.some((id) => held.has(id))) {
      for (const id of row.ids) held.add(id);
      continue;
    }
    const outcome = await pushEntry(http, db, { ...row, seq });
    if (typeof outcome === 'object') {
      if (outcome.stop === 'unauthorized') return { kind: 'unauthorized', pushed, refresh };
      return { kind: 'retry', pushed, retryAfterMs: outcome.retryAfterMs, refresh };
    }
    addRefreshTargets(refresh, row.op, outcome === 'pushed');
    if (outcome === 'pushed') pushed += 1;
    if (outcome === 'failed') for (const id of row.ids) held.add(id);
  }
  return { kind: 'done', pushed, refresh };
}
