// Downloads the images listed in `offline_images`, newest article first, a few at a time through the data
// layer's HTTP client (the bearer token in a header, never in an address), yielding to the page between
// batches. Within a budget of "the newest N MB" a newer image pushes out the oldest ones.
import Dexie from 'dexie';
import { ApiError, NetworkError, type HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import type { OfflineImageRow } from '../db/rows';
import { yieldToUi } from './yield-to-ui';

/** Images fetched at once: enough to keep the connection busy, few enough to leave it to the reader. */
export const DOWNLOAD_BATCH = 4;

export type DownloadOutcome = 'done' | 'budget' | 'offline' | 'stopped' | 'signedOut' | 'retryLater';

/** The server's answer for one image: its bytes, or why not (a 404 is for good). */
export async function fetchImage(
  http: HttpClient,
  path: string,
): Promise<{ bytes: ArrayBuffer; type: string }> {
  // Never into the browser's HTTP cache: logout can't empty that, and the server marks these immutable.
  const response = await http.send('GET', path.replace(/^\/api/, ''), { cache: 'no-store' });
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  return { bytes: await response.arrayBuffer(), type };
}

/**
 * Stores the bytes of an image still listed (a logout or a delete meanwhile leaves nothing behind): in one
 * transaction with its row, so size and state never disagree with what is kept.
 */
export async function keepImage(
  db: LecternDb,
  path: string,
  image: { bytes: ArrayBuffer; type: string },
  listing?: Omit<OfflineImageRow, 'state' | 'size'>,
): Promise<boolean> {
  return db.transaction('rw', db.offlineTables, async () => {
    const row =
      (await db.offline_images.get(path)) ?? (listing ? { ...listing, state: 'wanted', size: 0 } : undefined);
    if (!row) return false;
    await db.image_files.put({ path, bytes: image.bytes, type: image.type });
    await db.offline_images.put({ ...row, state: 'stored', size: image.bytes.byteLength });
    return true;
  });
}

async function newestCandidates(db: LecternDb, skip: ReadonlySet<string>): Promise<OfflineImageRow[]> {
  const newest = (state: OfflineImageRow['state']) =>
    db.offline_images
      .where('[state+created_at]')
      .between([state, Dexie.minKey], [state, Dexie.maxKey])
      .reverse()
      .filter((row) => !skip.has(row.path))
      .limit(DOWNLOAD_BATCH)
      .toArray();
  const [wanted, over] = await Promise.all([newest('wanted'), newest('over')]);
  return [...wanted, ...over]
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
    .slice(0, DOWNLOAD_BATCH);
}

/** Bytes of the images kept for articles saved at or after `createdAt` (newer ones take precedence). */
async function storedSince(db: LecternDb, createdAt: string): Promise<number> {
  let total = 0;
  await db.offline_images
    .where('[state+created_at]')
    .between(['stored', createdAt], ['stored', Dexie.maxKey])
    .each((row) => {
      total += row.size;
    });
  return total;
}

/** Past the budget, the oldest images go first; they come back if the budget grows. */
export async function evictOverBudget(db: LecternDb, limit: number): Promise<number> {
  if (limit === Infinity) return 0;
  let used = 0;
  const evicted: OfflineImageRow[] = [];
  await db.offline_images
    .where('[state+created_at]')
    .between(['stored', Dexie.minKey], ['stored', Dexie.maxKey])
    .reverse()
    .each((row) => {
      used += row.size;
      if (used > limit) evicted.push(row);
    });
  if (evicted.length === 0) return 0;
  await db.transaction('rw', db.offlineTables, async () => {
    await db.image_files.bulkDelete(evicted.map((row) => row.path));
    // The size stays known: a later pass can tell the image still doesn't fit without fetching it.
    await db.offline_images.bulkPut(evicted.map((row) => ({ ...row, state: 'over' as const })));
  });
  return evicted.reduce((sum, row) => sum + row.size, 0);
}

export interface DownloadOptions {
  db: LecternDb;
  http: HttpClient;
  /** The bytes images may take (Infinity: everything). */
  limit: number;
  isOnline: () => boolean;
  shouldStop: () => boolean;
  /** Fetches one image (the library's: one request per address at a time, shared with on-demand reads). */
  fetch?: (path: string) => Promise<{ bytes: ArrayBuffer; type: string }>;
  /** After a batch's fetched images are stored (or failed to be): `fetch` may forget them. */
  kept?: (paths: readonly string[]) => void;
  /** After each batch (tests and the bench count them). */
  onBatch?: (stored: number) => void;
}

/** Bytes of every image kept: read once per pass, then followed as images come and go. */
async function storedTotal(db: LecternDb): Promise<number> {
  let total = 0;
  await db.offline_images
    .where('[state+created_at]')
    .between(['stored', Dexie.minKey], ['stored', Dexie.maxKey])
    .each((row) => {
      total += row.size;
    });
  return total;
}

/** Stores a batch of fetched images in one transaction; answers their bytes (the rows still listed only). */
async function keepImages(
  db: LecternDb,
  fetched: { path: string; image: { bytes: ArrayBuffer; type: string } }[],
): Promise<number> {
  if (fetched.length === 0) return 0;
  return db.transaction('rw', db.offlineTables, async () => {
    const rows = await db.offline_images.bulkGet(fetched.map(({ path }) => path));
    let bytes = 0;
    const files = [];
    const listed = [];
    for (const [index, { path, image }] of fetched.entries()) {
      const row = rows[index];
      // Gone meanwhile (a logout, a delete): nothing is left behind.
      if (!row) continue;
      files.push({ path, bytes: image.bytes, type: image.type });
      listed.push({ ...row, state: 'stored' as const, size: image.bytes.byteLength });
      bytes += image.bytes.byteLength;
    }
    await db.image_files.bulkPut(files);
    await db.offline_images.bulkPut(listed);
    return bytes;
  });
}

/** Downloads until everything wanted is in, the budget is full, or the network or the session is gone. */
export async function downloadImages(options: DownloadOptions): Promise<DownloadOutcome> {
  const { db, http, limit } = options;
  const fetchOne = options.fetch ?? ((path: string) => fetchImage(http, path));
  const tried = new Set<string>();
  let used = limit === Infinity ? 0 : await storedTotal(db);
  for (;;) {
    if (options.shouldStop()) return 'stopped';
    if (!http.hasToken()) return 'signedOut';
    if (!options.isOnline()) return 'offline';
    const candidates = await newestCandidates(db, tried);
    if (candidates.length === 0) return 'done';
    const batch: OfflineImageRow[] = [];
    let coming = 0;
    for (const row of candidates) {
      // An image that was in once and didn't fit keeps its size: it is not fetched again to learn it.
      const fits =
        limit === Infinity ||
        used + coming + row.size <= limit ||
        // Full, but of older images: a newer one takes their place.
        (await storedSince(db, row.created_at)) + coming + row.size <= limit;
      if (!fits) break;
      batch.push(row);
      coming += row.size;
    }
    if (batch.length === 0) {
      // The budget is full of newer images: this one and every older one wait for a larger budget.
      await db.offline_images
        .where('[state+created_at]')
        .between(['wanted', Dexie.minKey], ['wanted', candidates[0]!.created_at], true, true)
        .modify({ state: 'over' });
      return 'budget';
    }
    for (const row of batch) tried.add(row.path);
    // A card may have fetched one on demand meanwhile: it is in already.
    const kept = new Set(
      await db.image_files
        .where(':id')
        .anyOf(batch.map((row) => row.path))
        .primaryKeys(),
    );
    const toFetch = batch.filter((row) => !kept.has(row.path));
    const results = await Promise.allSettled(toFetch.map((row) => fetchOne(row.path)));
    const fetched: { path: string; image: { bytes: ArrayBuffer; type: string } }[] = [];
    const failed: string[] = [];
    let outcome: DownloadOutcome | null = null;
    for (const [index, result] of results.entries()) {
      const row = toFetch[index]!;
      if (result.status === 'fulfilled') {
        fetched.push({ path: row.path, image: result.value });
        continue;
      }
      const error: unknown = result.reason;
      if (error instanceof ApiError && [403, 404, 410].includes(error.status)) failed.push(row.path);
      else if (error instanceof ApiError && error.status === 401) outcome = 'signedOut';
      else if (error instanceof NetworkError) outcome ??= 'offline';
      else outcome ??= 'retryLater';
    }
    try {
      if (failed.length > 0) await db.offline_images.where(':id').anyOf(failed).modify({ state: 'failed' });
      if (limit !== Infinity) {
        used += await keepImages(db, fetched);
        if (used > limit) used -= await evictOverBudget(db, limit);
      } else await keepImages(db, fetched);
    } finally {
      options.kept?.(toFetch.map((row) => row.path));
    }
    options.onBatch?.(fetched.length);
    if (outcome) return outcome;
    await yieldToUi();
  }
}
