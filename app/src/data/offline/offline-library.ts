// The library kept on the device for reading offline, pictures included: after each sync the bodies of
// articles that came as cards are fetched (body-downloads), then the images of synced articles are
// listed (image-scan) and downloaded in the background, newest first, within the reader's budget
// (image-downloads); screens show them from here as object URLs, and an image not downloaded yet is
// fetched on demand with the token. Work stops while a sync runs, so the first sync never waits for
// pictures, and picks up where it was after a reload (what is listed and stored is in IndexedDB).
import type { ArticleSummary } from '@lectern/shared-schema';
import Dexie from 'dexie';
import type { HttpClient, TokenStorage } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import type { OfflineImageRow } from '../db/rows';
import { ARTICLE_IMAGES_CACHE } from '../device/image-caches';
import type { SyncEngine } from '../sync/sync-engine';
import { downloadBodies, type BodyDownloadOptions } from './body-downloads';
import { bodySizeOf } from '../db/local-store';
import { hasStagedCards, moveStagedCards } from '../db/staged-cards';
import { createIdsWrittenSince, rowsByRev } from '../db/ids-written-since';
import { bodiesByRev, bodyPages } from '../db/bodies';
import { isKeptImageAddress } from './image-addresses';
import {
  downloadImages,
  evictOverBudget,
  fetchImage,
  keepImage,
  type DownloadOutcome,
} from './image-downloads';
import { scanArticleImages } from './image-scan';
import { createSyncEnds } from './sync-ends';
import {
  browserStorage,
  budgetBytes,
  readBudget,
  requestPersistentStorage,
  writeBudget,
  type BrowserStorage,
  type OfflineBudget,
} from './storage-budget';
import { yieldToUi } from './yield-to-ui';

/** What a card says: every image of the article is on the device, or some are still coming. */
export type OfflineAvailability = 'offline' | 'downloading';

/** What availability needs of an article, as the card has it. */
export type AvailabilityInput = Pick<ArticleSummary, 'id' | 'images_pending' | 'fetch_state'>;

export interface OfflineUsage {
  articles: { count: number; bytes: number };
  images: { stored: number; listed: number; waiting: number; bytes: number };
  browser: BrowserStorage;
  budget: OfflineBudget;
}

export interface OfflineLibraryOptions {
  db: LecternDb;
  http: HttpClient;
  sync: Pick<SyncEngine, 'getState' | 'subscribe' | 'isOnline'>;
  /** Where the budget is kept: localStorage in the browser. */
  settings: TokenStorage;
  /** False: downloads run only when `downloadNow()` is called (tests). */
  background?: boolean;
  /**
   * Once a pass has the bodies it will get, the cards moved into rows and the images listed (before it
   * downloads them): what it stored can be taken in (the search index, in idle moments), without
   * competing with the move for the page and IndexedDB.
   */
  afterBodies?: () => void;
  /** Where the bodies are read and stored (body-downloads.ts); the calling thread when not given. */
  bodyAnswers?: BodyDownloadOptions['answers'];
}

const SCREENSHOT_PATH = /^\/api\/articles\/([^/]+)\/screenshot$/;

function blobOf(file: { bytes: ArrayBuffer; type: string }): Blob {
  return new Blob([file.bytes], { type: file.type });
}

export function createOfflineLibrary(options: OfflineLibraryOptions) {
  const { db, http, sync, settings } = options;
  let running: Promise<DownloadOutcome> | null = null;
  /** Raised by each reason to look again (a sync ended, the budget changed): a pass sees what it was at its start. */
  let changes = 0;
  let stopped = false;
  let unsubscribe: (() => void) | null = null;
  const onDemand = new Map<string, Promise<Blob | null>>();
  const fetching = new Map<string, Promise<{ bytes: ArrayBuffer; type: string }>>();

  /**
   * One request per address: a card asking for an image the downloader is fetching waits for it, and the
   * answer is shared until it is stored (`fetchedAndKept`), so nobody asks again in between. A failed
   * request is forgotten at once: the next asker tries again.
   */
  function fetchOnce(path: string): Promise<{ bytes: ArrayBuffer; type: string }> {
    const current = fetching.get(path);
    if (current) return current;
    const request = fetchImage(http, path);
    fetching.set(path, request);
    request.catch(() => fetching.delete(path));
    return request;
  }

  /** The images are on the device (or were dropped): later askers read them from there. */
  function fetchedAndKept(paths: readonly string[]): void {
    for (const path of paths) fetching.delete(path);
  }

  // Downloads give way to a sync (it writes the same articles, and the first one must be quick).
  const shouldStop = () => stopped || sync.getState().syncing;

  async function pass(): Promise<DownloadOutcome> {
    if (!http.hasToken()) return 'signedOut';
    // Bodies first: the images to keep are read from them, and an article reads without its pictures.
    const bodies = await downloadBodies({
      db,
      http,
      limit: budgetBytes(readBudget(settings)),
      isOnline: sync.isOnline,
      shouldStop,
      answers: options.bodyAnswers,
    });
    if (bodies !== 'done' && bodies !== 'budget') return bodies;
    // The images are listed from article rows: a first sync's cards still staged are moved first (the move
    // under way is joined).
    if (await hasStagedCards(db)) await moveStagedCards(db, shouldStop);
    if (shouldStop()) return 'stopped';
    await scanArticleImages(db, shouldStop);
    if (shouldStop()) return 'stopped';
    options.afterBodies?.();
    const images = await downloadImages({
      db,
      http,
      limit: budgetBytes(readBudget(settings)),
      isOnline: sync.isOnline,
      shouldStop,
      fetch: fetchOnce,
      kept: fetchedAndKept,
    });
    // Every image in, but not every body: the budget is what stopped the pass.
    return images === 'done' ? bodies : images;
  }

  /**
   * One pass now, or joins the one running, which runs again when there was a reason to look again since
   * it started (downloadAgain). Joining alone is no reason: a pass just started by a sync's end was walked
   * a second time, for nothing, by whoever then waited for it (every body walked and every body's images
   * scanned again: about 2.7 s of a 5,000-article first sync).
   */
  function downloadNow(): Promise<DownloadOutcome> {
    running ??= (async () => {
      try {
        for (;;) {
          const seen = changes;
          const outcome = await pass();
          if (changes === seen || outcome === 'signedOut') return outcome;
        }
      } finally {
        running = null;
      }
    })();
    return running;
  }

  /** Something changed that a pass under way may have missed: one more pass after it, or one now. */
  function downloadAgain(): void {
    changes += 1;
    void downloadNow().catch(() => undefined);
  }

  function start(): void {
    stopped = false;
    if (unsubscribe || options.background === false) return;
    const syncEnded = createSyncEnds(sync.getState());
    unsubscribe = sync.subscribe(() => {
      if (syncEnded(sync.getState())) downloadAgain();
    });
    // After a reload: carry on with what the last page left, once the page has settled.
    void yieldToUi().then(() => (stopped ? undefined : downloadNow().catch(() => undefined)));
  }

  async function stop(): Promise<void> {
    stopped = true;
    unsubscribe?.();
    unsubscribe = null;
    await running?.catch(() => undefined);
  }

  /** Fetches an image the device hasn't got yet and keeps it (listed under its article when known). */
  async function fetchAndKeep(articleId: string, path: string): Promise<Blob | null> {
    if (!http.hasToken() || !sync.isOnline()) return null;
    try {
      const image = await fetchOnce(path);
      const article = await db.articles.get(articleId);
      const listing = article ? { path, article_id: articleId, created_at: article.created_at } : undefined;
      await keepImage(db, path, image, listing);
      return blobOf(image);
    } catch {
      return null;
    } finally {
      fetchedAndKept([path]);
    }
  }

  const readUnscannedArticles = createIdsWrittenSince(db, rowsByRev(db.articles));
  const readUnscannedBodies = createIdsWrittenSince(db, bodiesByRev(db));

  /**
   * Per article: all its images on the device, or some still to come. Absent: neither (not listed yet, past
   * the budget, freed). Reads keys only (an image's address names its article), never article rows or
   * bytes: a grid of a thousand cards reads it cheaply while a download runs.
   */
  async function availability(
    articles: readonly AvailabilityInput[],
  ): Promise<Map<string, OfflineAvailability>> {
    const answer = new Map<string, OfflineAvailability>();
    if (articles.length === 0) return answer;
    const scannedRev = (await db.getMeta('offlineImagesRev')) ?? 0;
    const keysOf = (state: OfflineImageRow['state']) =>
      db.offline_images
        .where('[state+created_at]')
        .between([state, Dexie.minKey], [state, Dexie.maxKey])
        .primaryKeys();
    const [unscanned, unscannedBodies, wanted, over, freed] = await Promise.all([
      readUnscannedArticles(scannedRev),
      readUnscannedBodies(scannedRev),
      keysOf('wanted'),
      keysOf('over'),
      keysOf('freed'),
    ]);
    const ownerOf = (path: string) => path.split('/')[3] ?? '';
    const waiting = new Set(wanted.map(ownerOf));
    const incomplete = new Set([...over, ...freed].map(ownerOf));
    const notListed = new Set([...unscanned, ...unscannedBodies]);
    for (const article of articles) {
      if (article.images_pending === true || waiting.has(article.id)) answer.set(article.id, 'downloading');
      else if (!article.fetch_state && !notListed.has(article.id) && !incomplete.has(article.id))
        answer.set(article.id, 'offline');
    }
    return answer;
  }

  return {
    start,
    stop,
    downloadNow,
    availability,
    /** Lists the images of articles written since the last scan, without downloading (tests). */
    scanNow: () => scanArticleImages(db),

    /**
     * Follows `availability` of these articles: read again after writes to the device's database (this
     * tab's or another's), at most every `throttleMs`, so a download writing many small batches never
     * re-renders the grid for each; called only when the answer changed.
     */
    watchAvailability(
      articles: readonly AvailabilityInput[],
      onChange: (value: ReadonlyMap<string, OfflineAvailability>) => void,
      throttleMs = 500,
    ): () => void {
      let closed = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let reading = false;
      let dirty = false;
      let lastRead = 0;
      let lastKey: string | null = null;
      const read = async () => {
        timer = undefined;
        if (closed) return;
        if (reading) {
          dirty = true;
          return;
        }
        reading = true;
        lastRead = Date.now();
        try {
          const value = await availability(articles);
          const key = [...value].map(([id, state]) => `${id}:${state}`).join(',');
          if (!closed && key !== lastKey) {
            lastKey = key;
            onChange(value);
          }
        } catch {
          // The database closed (logout, page unload): nothing to show.
        } finally {
          reading = false;
          if (dirty) {
            dirty = false;
            schedule();
          }
        }
      };
      const schedule = () => {
        if (closed || timer !== undefined) return;
        timer = setTimeout(() => void read(), Math.max(0, lastRead + throttleMs - Date.now()));
      };
      const onMutated = () => schedule();
      Dexie.on('storagemutated', onMutated);
      void read();
      return () => {
        closed = true;
        clearTimeout(timer);
        Dexie.on('storagemutated').unsubscribe(onMutated);
      };
    },

    /**
     * An image of an article to show: a screenshot waiting to upload, the copy kept on the device, else
     * (online) the server's, fetched with the token and kept. Null when none can be had.
     */
    async imageBlob(articleId: string, path: string): Promise<Blob | null> {
      if (!isKeptImageAddress(path)) return null;
      const screenshotOf = SCREENSHOT_PATH.exec(path)?.[1];
      if (screenshotOf) {
        const local = await db.screenshots.get(decodeURIComponent(screenshotOf));
        if (local) return blobOf(local);
      }
      const file = await db.image_files.get(path);
      if (file) return blobOf(file);
      const inFlight = onDemand.get(path);
      if (inFlight) return inFlight;
      const reading = fetchAndKeep(articleId, path).finally(() => onDemand.delete(path));
      onDemand.set(path, reading);
      return reading;
    },

    /** How much the offline library takes, and what the browser grants. */
    async usage(): Promise<OfflineUsage> {
      const images = { stored: 0, listed: 0, waiting: 0, bytes: 0 };
      await db.offline_images.each((row) => {
        images.listed += 1;
        if (row.state === 'stored') {
          images.stored += 1;
          images.bytes += row.size;
        } else if (row.state === 'wanted') images.waiting += 1;
      });
      const articles = { count: 0, bytes: 0 };
      // Bodies are read a few packs (of about 100 K characters) at a time: a large library never blocks
      // the page for long.
      for await (const rows of bodyPages(db, 8)) {
        for (const row of rows) articles.bytes += bodySizeOf(row.content, row.text);
        await yieldToUi();
      }
      articles.count = await db.articles.count();
      return { articles, images, browser: await browserStorage(), budget: readBudget(settings) };
    },

    budget: (): OfflineBudget => readBudget(settings),

    /**
     * Sets the budget: a smaller one frees the oldest images at once, a larger one (or a new choice after
     * "Free space") downloads again what now fits. "Everything" asks the browser to keep the data for good.
     */
    async setBudget(budget: OfflineBudget): Promise<OfflineBudget> {
      const kept = writeBudget(settings, budget);
      if (kept.kind === 'everything') await requestPersistentStorage();
      await db.transaction('rw', db.offlineTables, async () => {
        for (const state of ['over', 'freed'] as const) {
          await db.offline_images
            .where('[state+created_at]')
            .between([state, Dexie.minKey], [state, Dexie.maxKey])
            .modify({ state: 'wanted' });
        }
      });
      await evictOverBudget(db, budgetBytes(kept));
      downloadAgain();
      return kept;
    },

    /**
     * "Free space": every image downloaded so far leaves the device (an article opened online fetches its
     * own again; articles synced from now on still download theirs), and so does the old cache of images
     * loaded from other sites. Answers the bytes freed.
     */
    async freeSpace(): Promise<number> {
      await stop();
      let freed = 0;
      try {
        await db.transaction('rw', db.offlineTables, async () => {
          const stored = await db.offline_images
            .where('[state+created_at]')
            .between(['stored', Dexie.minKey], ['stored', Dexie.maxKey])
            .toArray();
          freed = stored.reduce((sum, row) => sum + row.size, 0);
          await db.image_files.clear();
          await db.offline_images.bulkPut(
            stored.map((row) => ({ ...row, state: 'freed' as const, size: 0 })),
          );
          await db.offline_images
            .where('[state+created_at]')
            .between(['wanted', Dexie.minKey], ['wanted', Dexie.maxKey])
            .modify({ state: 'freed' });
        });
        if (typeof caches !== 'undefined') await caches.delete(ARTICLE_IMAGES_CACHE).catch(() => false);
      } finally {
        start();
      }
      return freed;
    },

    requestPersistentStorage,
  };
}

export type OfflineLibrary = ReturnType<typeof createOfflineLibrary>;
