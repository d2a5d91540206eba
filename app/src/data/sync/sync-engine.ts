// Keeps the device and the server in step: push the outbox, then pull the change feed. Runs at start, when
// the network comes back, when the tab becomes visible or returns from the back/forward cache, shortly
// after each local write, periodically, and at once when the server's event stream says another device
// wrote (live-updates.ts); backs off while the server can't be reached; holds a lock so one tab syncs at
// a time.
import { nowIso } from '@lectern/shared-schema';
import { liveQuery, type Subscription } from 'dexie';
import { ApiError, NetworkError, type HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import type { OutboxRow } from '../db/rows';
import type { Operation } from '../outbox/operations';
import { downloadBodies, type BodyDownloadOptions } from '../offline/body-downloads';
import { hasPendingFetches } from '../reads/article-reads';
import type { Connectivity } from './connectivity';
import { onRestoredFromCache, rereadEverything } from './page-restore';
import { addRefreshTargets, mergeTargets, noTargets, refreshFromServer } from './refresh';
import { PULL_LIMITS, pageLimit, pullChanges, readPullStart, requestFeedPage, type EarlyPage } from './pull';
import { markSync } from './sync-marks';
import { pushOutbox } from './push';
import { createLiveUpdates, type OpenEventSource } from './live-updates';
import { backoffMs } from './backoff';
import type { SyncLock } from './sync-lock';

/** A write the server refused, shown with its reason and a Retry or Delete choice. */
export interface FailedWrite {
  seq: number;
  op: Operation;
  error: string;
  status: number | null;
  createdAt: string;
}

export interface SyncState {
  /** The browser has a network and the server answered the last request. */
  online: boolean;
  syncing: boolean;
  /** No session (signed out, or a 401): writes wait in the outbox for the same user's next sign-in. */
  signedOut: boolean;
  pendingCount: number;
  failed: FailedWrite[];
  lastSyncedAt: string | null;
}

export type SyncRunResult =
  { status: 'synced'; pushed: number; pulled: number } | { status: 'offline' | 'signedOut' | 'retrying' };

export interface SyncEngineOptions {
  db: LecternDb;
  http: HttpClient;
  connectivity: Connectivity;
  lock: SyncLock;
  /** How often to sync when nothing else asks for it. */
  periodMs?: number;
  /** How long after a local write to sync, so a burst of writes goes in one run. */
  writeDelayMs?: number;
  maxBackoffMs?: number;
  /** False: sync only runs when syncNow() is called (tests and tools that need exact timing). */
  background?: boolean;
  /** The clock, timers and dice the engine schedules with: the real ones unless a test reads the delays. */
  timers?: SyncTimers;
  /** Opens the server's event stream (live updates); null or absent: none, the other triggers alone. */
  openEventSource?: OpenEventSource | null;
  /** The bytes article bodies may take on the device (the reader's offline budget); everything by default. */
  bodyBudget?: () => number;
  /** Where the bodies the sync fetches are read and stored (body-downloads.ts); the calling thread when not given. */
  bodyAnswers?: BodyDownloadOptions['answers'];
}

export interface SyncTimers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** In [0, 1): spreads the retries of many devices apart. */
  random(): number;
}

const realTimers: SyncTimers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout> | undefined),
  random: () => Math.random(),
};

/** How soon to sync again while the server still fetches pages of the device's articles. */
export const PENDING_FETCH_SYNC_MS = 3000;
/**
 * A first sync fetches the bodies of this many newest articles itself (a first screen's worth, so they
 * open offline at once, and a small library is whole when the sync ends); the offline library fetches the
 * rest in the background.
 */
export const SYNC_BODIES = 100;

function toFailedWrite(row: OutboxRow): FailedWrite {
  return {
    seq: row.seq ?? 0,
    op: row.op,
    error: row.error ?? '',
    status: row.status_code,
    createdAt: row.created_at,
  };
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;

export function createSyncEngine(options: SyncEngineOptions) {
  const { db, http, connectivity, lock } = options;
  const periodMs = options.periodMs ?? 60_000;
  const writeDelayMs = options.writeDelayMs ?? 300;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const timers = options.timers ?? realTimers;

  let reachable = true;
  /** Entities to read back after the next pull, kept across runs that stop early. */
  let toRefresh = noTargets();
  let syncing = false;
  let failures = 0;
  let stored: Pick<SyncState, 'pendingCount' | 'failed' | 'lastSyncedAt'> = {
    pendingCount: 0,
    failed: [],
    lastSyncedAt: null,
  };
  /** The time stamp this device's last sync wrote, told before the live query reads it back. */
  let ownStamp: string | null = null;
  /** Stamps this device wrote: a read of the stored state begun before the last one may not have it. */
  let stampsWritten = 0;
  let state = snapshot();
  const listeners = new Set<() => void>();
  let running: Promise<SyncRunResult> | null = null;
  let again = false;
  let timer: unknown;
  let timerDue = Infinity;
  /** stop() was called: a run in progress leaves what can wait (the first sync's bodies) at once. */
  let stopRequested = false;
  let stopStarted: (() => void) | null = null;
  let storedSubscription: Subscription | null = null;
  /** A first sync's first page, asked for as the sign-in answered (askFirstPage), until a pull takes it. */
  let earlyPage: EarlyPage | null = null;
  /** How many times stop() was called: a page asked for across a stop is not kept. */
  let stops = 0;
  // Only a device that syncs by itself follows the stream: the others sync when they are told to.
  const live = createLiveUpdates({
    http,
    connectivity,
    openEventSource: options.background === false ? null : (options.openEventSource ?? null),
    // Joins a run in progress (which then runs once more) rather than starting a second one.
    onChanged: () => schedule(0),
    timers,
    maxBackoffMs,
  });

  function snapshot(): SyncState {
    return {
      online: connectivity.isOnline() && reachable,
      syncing,
      signedOut: !http.hasToken(),
      ...stored,
    };
  }

  /** The current state, the same object as long as nothing changed (what useSyncExternalStore needs). */
  function currentState(): SyncState {
    const next = snapshot();
    const same = (Object.keys(next) as (keyof SyncState)[]).every((key) => next[key] === state[key]);
    if (!same) state = next;
    return state;
  }

  /** The state the listeners last heard of. */
  let heard = state;

  /**
   * Tells the listeners when the state moved since they last heard. Compared with what they heard, not with
   * `state`: a render reading getState() between the browser's flag turning and its event would otherwise
   * take the change in silently (and the offline toast would never show).
   */
  function emit() {
    const next = currentState();
    if (next === heard) return;
    heard = next;
    for (const listener of listeners) listener();
  }

  /**
   * The stamp read back, unless the read began before this device's last stamp was written and has an
   * older one (or none, a new device's first): told again, that would count as a second sync.
   */
  function notBefore(read: string | null, stampsBeforeRead: number): string | null {
    const stale = stampsBeforeRead < stampsWritten && ownStamp !== null && (read === null || read < ownStamp);
    return stale ? ownStamp : read;
  }

  function watchStoredState() {
    if (storedSubscription) return;
    storedSubscription = liveQuery(async () => {
      const stampsBeforeRead = stampsWritten;
      const rows = await db.outbox.toArray();
      return {
        pendingCount: rows.filter((row) => row.status === 'pending').length,
        failed: rows.filter((row) => row.status === 'failed').map(toFailedWrite),
        lastSyncedAt: (await db.getMeta('lastSyncedAt')) ?? null,
        stampsBeforeRead,
      };
    }).subscribe({
      next({ stampsBeforeRead, ...value }) {
        stored = { ...value, lastSyncedAt: notBefore(value.lastSyncedAt, stampsBeforeRead) };
        emit();
      },
      error: () => undefined,
    });
  }

  function schedule(delayMs: number) {
    if (options.background === false) return;
    const due = timers.now() + delayMs;
    if (timer !== undefined && timerDue <= due) return;
    timers.clearTimeout(timer);
    timerDue = due;
    timer = timers.setTimeout(() => {
      timer = undefined;
      timerDue = Infinity;
      void run();
    }, delayMs);
  }

  function backoff(retryAfterMs: number | null) {
    failures += 1;
    schedule(backoffMs(failures, maxBackoffMs, timers.random(), retryAfterMs));
  }

  async function cycle(): Promise<SyncRunResult> {
    if (!http.hasToken()) return { status: 'signedOut' };
    if (!connectivity.isOnline()) return { status: 'offline' };
    let pushed = 0;
    let pulled = 0;
    try {
      // Writes made during a run go out in the same run, a few rounds at most.
      for (let round = 0; round < 5; round += 1) {
        const push = await pushOutbox(http, db);
        pushed += push.pushed;
        mergeTargets(toRefresh, push.refresh);
        if (push.kind === 'unauthorized') return { status: 'signedOut' };
        if (push.kind === 'retry') {
          backoff(push.retryAfterMs);
          return { status: 'retrying' };
        }
        markSync('pull', 'start');
        const early = earlyPage;
        earlyPage = null;
        pulled += await pullChanges(http, db, PULL_LIMITS, early);
        markSync('pull', 'end');
        await refreshFromServer(http, db, toRefresh);
        toRefresh = noTargets();
        const waiting = await db.outbox.where('status').equals('pending').count();
        if (waiting === 0 || push.pushed === 0) break;
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return { status: 'signedOut' };
      if (error instanceof NetworkError || (error instanceof ApiError && error.status >= 500)) {
        backoff(error instanceof ApiError ? error.retryAfterMs : null);
        return { status: 'retrying' };
      }
      throw error;
    }
    // A first sync's staged cards (db/staged-cards.ts) are moved into rows by the offline library once
    // their bodies are in: both write to the same stores, and the bodies are what the reader waits for.
    if (await db.getMeta('bodiesWanted')) {
      // Whatever stops it early (the network, the budget) is left to the background download.
      await downloadBodies({
        db,
        http,
        limit: options.bodyBudget?.() ?? Infinity,
        answers: options.bodyAnswers,
        isOnline: connectivity.isOnline,
        // Logout and account deletion wait for the run in progress before wiping: they don't wait for bodies.
        shouldStop: () => stopRequested,
        newest: SYNC_BODIES,
      });
    }
    failures = 0;
    const stamp = nowIso();
    await db.setMeta('lastSyncedAt', stamp);
    // Told with the run's end (one notification, syncing turned false with the new stamp), not a moment
    // later when the live query reads it back: a listener counting syncs then sees this one once.
    ownStamp = stamp;
    stampsWritten += 1;
    stored = { ...stored, lastSyncedAt: stamp };
    // Pages the server is still fetching (an import, a Retry) come through the feed: look again soon, not
    // in a minute, so "Fetching page…" gives way to the article while the reader watches.
    if (await hasPendingFetches(db)) schedule(PENDING_FETCH_SYNC_MS);
    return { status: 'synced', pushed, pulled };
  }

  /** Runs one sync now (or joins the one running, then runs again so nothing written meanwhile waits). */
  async function run(): Promise<SyncRunResult> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      syncing = true;
      emit();
      try {
        let pushed = 0;
        let pulled = 0;
        for (;;) {
          again = false;
          const result = await lock(cycle);
          if (result.status !== 'synced') return result;
          pushed += result.pushed;
          pulled += result.pulled;
          if (!again) return { status: 'synced', pushed, pulled };
        }
      } finally {
        syncing = false;
        running = null;
        emit();
      }
    })();
    return running;
  }

  function start() {
    if (stopStarted) return;
    stopRequested = false;
    watchStoredState();
    const onWake = () => {
      emit();
      if (connectivity.isOnline()) schedule(0);
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') schedule(0);
    };
    const unsubscribe = connectivity.subscribe(onWake);
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);
    // Back to a page from the back/forward cache: what it shows predates the writes made meanwhile.
    const stopWatchingRestores = onRestoredFromCache(() => {
      rereadEverything(db);
      emit();
      if (connectivity.isOnline()) schedule(0);
    });
    const interval = setInterval(() => schedule(0), periodMs);
    schedule(0);
    live.start();
    stopStarted = () => {
      live.stop();
      unsubscribe();
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisible);
      stopWatchingRestores();
      clearInterval(interval);
    };
  }

  /**
   * A new device's first page of the feed, asked for at once (a sign-in calls this as it answers): the first
   * sync's run begins with reads of the device's database, which the screens' first render would otherwise
   * hold up for a tenth of a second. The run's pull takes the page if it asks for the same one, else drops it.
   */
  async function askFirstPage(): Promise<void> {
    if (options.background === false || !connectivity.isOnline()) return;
    const stopsBefore = stops;
    const { since, cards } = await readPullStart(db);
    // Stopped meanwhile (a logout): the device may be another account's by the time a pull runs.
    if (since !== 0 || stops !== stopsBefore) return;
    // Its failure is the pull's to report, when the pull takes it.
    const limit = pageLimit(PULL_LIMITS, since, cards);
    earlyPage = { since, cards, limit, coming: requestFeedPage(http, since, limit, cards) };
  }

  /** Stops every timer and listener and waits for a run in progress (logout does this before wiping). */
  async function stop() {
    stops += 1;
    earlyPage = null;
    stopRequested = true;
    stopStarted?.();
    stopStarted = null;
    timers.clearTimeout(timer);
    timer = undefined;
    timerDue = Infinity;
    storedSubscription?.unsubscribe();
    storedSubscription = null;
    await running?.catch(() => undefined);
  }

  return {
    start,
    stop,
    /** Syncs now and answers how it went. */
    syncNow: run,
    askFirstPage,
    /** Asks for a sync soon: after a local write, when a screen wants fresh data. */
    requestSync: (delayMs: number = writeDelayMs) => schedule(delayMs),
    getState: currentState,
    subscribe(listener: () => void) {
      watchStoredState();
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Called by the HTTP client on every answer or failed connection. */
    setReachable(value: boolean) {
      if (value && !reachable) failures = 0;
      reachable = value;
      emit();
    },
    /** A refused write was given up: read back from the server what it had changed on the device. */
    recheck(op: Operation) {
      addRefreshTargets(toRefresh, op, false);
      schedule(0);
    },
    /** The session changed (sign-in, 401, logout): recompute `signedOut`, open or close the stream. */
    refresh() {
      emit();
      live.update();
    },
    /** The server's event stream is open: another device's write is pulled the moment it lands. */
    isLive: live.isOpen,
    isOnline: () => connectivity.isOnline() && reachable,
  };
}
