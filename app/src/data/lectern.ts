// The data layer in one object: what the screens call. Every call of spec section 7 is here with the
// spec's payloads and the server's response shapes, answered from the device's database and synced in
// the background.
import { liveQuery, type DexieOptions } from 'dexie';
import { createHttpClient, type FetchLike, type TokenStorage } from './api/http-client';
import { createAuthApi } from './auth/auth-api';
import { DEFAULT_DB_NAME, LecternDb } from './db/lectern-db';
import { createImportsApi } from './imports/imports-api';
import { browserBodyAnswers } from './offline/body-answers-in-worker';
import { createOfflineLibrary } from './offline/offline-library';
import { budgetBytes, readBudget } from './offline/storage-budget';
import { dropEntry, retryEntry } from './outbox/outbox';
import { readingAnalytics } from './reads/analytics';
import { createArticlesApi } from './repository/articles';
import type { RepositoryContext } from './repository/context';
import { createHighlightsApi } from './repository/highlights';
import { createListsApi } from './repository/lists';
import { createTagsApi } from './repository/tags';
import { createArticleSearch } from './search/article-search';
import { createHighlightSearch } from './search/highlight-search';
import { browserConnectivity, type Connectivity } from './sync/connectivity';
import { browserEventSource, type OpenEventSource } from './sync/live-updates';
import { pacedQuerier } from './sync/first-sync-pace';
import { createSyncEngine, type SyncTimers } from './sync/sync-engine';
import { webLock, type SyncLock } from './sync/sync-lock';

export interface LecternOptions {
  /** The server's origin; empty (the default) for the page's own origin. */
  baseUrl?: string;
  fetch?: FetchLike;
  /** localStorage by default. */
  tokenStorage?: TokenStorage;
  /** Where the device keeps its own settings (the offline budget): localStorage by default. */
  settingsStorage?: TokenStorage;
  /** Where a tab keeps the nonce of the Google sign-in it started: sessionStorage by default. */
  signInStorage?: TokenStorage;
  dbName?: string;
  /** IndexedDB to use instead of the browser's (fake-indexeddb in tests). */
  indexedDB?: Pick<DexieOptions, 'indexedDB' | 'IDBKeyRange'>;
  connectivity?: Connectivity;
  lock?: SyncLock;
  /** After any 401 (spec section 4: the app goes to /login). */
  onUnauthorized?: () => void;
  syncPeriodMs?: number;
  /** How long after a local write to sync. */
  writeDelayMs?: number;
  /** False: sync only when `sync.syncNow()` is called (tests and tools that need exact timing). */
  backgroundSync?: boolean;
  /** The sync engine's clock and timers (tests that read its backoff). */
  syncTimers?: SyncTimers;
  /** Opens the server's event stream for live updates: the browser's EventSource by default; null: none. */
  openEventSource?: OpenEventSource | null;
}

/** How long a logout waits for unsynced writes to reach the server before it warns about them. */
const DELIVER_BEFORE_WIPE_MS = 5_000;

export function createLectern(options: LecternOptions = {}) {
  const baseUrl = options.baseUrl ?? '';
  const tokenStorage = options.tokenStorage ?? globalThis.localStorage;
  const db = new LecternDb(options.dbName ?? DEFAULT_DB_NAME, options.indexedDB);
  const settings = options.settingsStorage ?? options.tokenStorage ?? globalThis.localStorage;
  let onReachability: (reachable: boolean) => void = () => {};
  let onSessionLost: () => void = () => {};
  const http = createHttpClient({
    baseUrl,
    fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
    tokenStorage,
    onUnauthorized: () => onSessionLost(),
    onReachability: (reachable) => onReachability(reachable),
  });
  const connectivity = options.connectivity ?? browserConnectivity();
  // A new device's bodies are read and stored by a worker, off the page's thread and out of its heap, when
  // the worker can open the same database: the browser's own, not one handed in (tests).
  const bodyAnswers = options.indexedDB === undefined ? browserBodyAnswers : undefined;
  const sync = createSyncEngine({
    db,
    http,
    connectivity,
    lock: options.lock ?? webLock(),
    periodMs: options.syncPeriodMs,
    writeDelayMs: options.writeDelayMs,
    background: options.backgroundSync,
    timers: options.syncTimers,
    openEventSource: options.openEventSource === undefined ? browserEventSource() : options.openEventSource,
    bodyBudget: () => budgetBytes(readBudget(settings)),
    bodyAnswers,
  });
  onReachability = sync.setReachable;
  onSessionLost = () => {
    sync.refresh();
    options.onUnauthorized?.();
  };

  const articleSearch = createArticleSearch(db);
  const offline = createOfflineLibrary({
    db,
    http,
    sync,
    settings,
    background: options.backgroundSync,
    // A new device's bodies are made searchable once they are in, not by the first search.
    afterBodies: articleSearch.keepUp,
    bodyAnswers,
  });
  offline.start();

  const ctx: RepositoryContext = {
    db,
    http,
    sync,
    articleSearch,
    highlightSearch: createHighlightSearch(db),
  };

  return {
    db,
    auth: createAuthApi({
      db,
      http,
      sync,
      tokenStorage,
      signInStorage: options.signInStorage ?? globalThis.sessionStorage,
      baseUrl,
    }),
    articles: createArticlesApi(ctx),
    tags: createTagsApi(ctx),
    lists: createListsApi(ctx),
    highlights: createHighlightsApi(ctx),
    /** Imports of another app's export: online only, followed on the server. */
    imports: createImportsApi({ http, sync }),
    /** The library kept for reading offline, images included, and its budget. */
    offline,
    /**
     * Runs `querier` now and again after every change to what it read (any tab): the screens' live reads
     * (hooks/use-live-query.ts), without the screens' own JavaScript carrying Dexie.
     */
    liveQuery: <T>(querier: () => T | Promise<T>) => liveQuery(pacedQuerier(db, querier)),
    /** Spec section 9's numbers, from the device's data. */
    analytics: (now?: Date) => readingAnalytics(db, now),
    sync: {
      ...sync,
      /** Writes the server hasn't got yet: a logout or another account's sign-in warns before losing them. */
      unsyncedWriteCount: () => db.outbox.count(),
      /**
       * Sends the writes the server hasn't got yet, waiting at most `withinMs`, and answers how many are
       * still waiting: a logout gives a write made a moment before (an article opened, so marked read) its
       * chance to reach the server before warning that it would be lost.
       */
      async deliverUnsyncedWrites(withinMs = DELIVER_BEFORE_WIPE_MS): Promise<number> {
        if ((await db.outbox.where('status').equals('pending').count()) === 0) return db.outbox.count();
        if (connectivity.isOnline()) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([
            sync.syncNow().catch(() => undefined),
            new Promise((resolve) => (timer = setTimeout(resolve, withinMs))),
          ]);
          clearTimeout(timer);
        }
        return db.outbox.count();
      },
      hasUnsyncedWrites: async () => (await db.outbox.count()) > 0,
      /** Puts a refused write back in the queue. */
      async retry(seq: number) {
        await retryEntry(db, seq);
        sync.requestSync(0);
      },
      /** Gives up a refused write; a refused create takes its entity with it, an edit is undone. */
      async discard(seq: number) {
        const row = await db.outbox.get(seq);
        await dropEntry(db, seq);
        if (row) sync.recheck(row.op);
      },
    },
    /** Stops syncing and closes the database (tests, page unload). */
    async close() {
      articleSearch.stop();
      await offline.stop();
      await sync.stop();
      db.close();
    },
  };
}

export type Lectern = ReturnType<typeof createLectern>;
