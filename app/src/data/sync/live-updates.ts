// Live updates between devices: while signed in, online and shown, the device holds the server's event
// stream (GET /api/sync/events) and pulls the moment another device's write lands, instead of at its next
// timer. The stream only hurries things along: every trigger of the sync engine (start, network back, tab
// shown, local writes, the periodic timer) runs whether it is up or not, so when it is down, or never
// comes up (a proxy that cuts it, a server at its cap), the device syncs as it always did. It reconnects
// with backoff and a fresh ticket each time: EventSource can't send the token, so the address carries a
// one-minute ticket instead.
import {
  SYNC_EVENTS,
  type SyncEventsClosedReason,
  type SyncEventsTicketResponse,
} from '@lectern/shared-schema';
import { ApiError, type HttpClient } from '../api/http-client';
import { backoffMs } from './backoff';
import type { Connectivity } from './connectivity';
import type { SyncTimers } from './sync-engine';

/** What the stream needs of an EventSource: named events and close(). */
export interface LiveEventSource {
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void;
  close(): void;
}

export type OpenEventSource = (url: string) => LiveEventSource;

/** The browser's EventSource, or null where there is none (Node). */
export function browserEventSource(): OpenEventSource | null {
  if (typeof EventSource === 'undefined') return null;
  return (url) => {
    const source = new EventSource(url);
    return {
      addEventListener: (type, listener) =>
        source.addEventListener(type, (event) => listener({ data: (event as MessageEvent).data })),
      close: () => source.close(),
    };
  };
}

export interface LiveUpdatesOptions {
  http: HttpClient;
  connectivity: Connectivity;
  /** null: no live updates (no EventSource here); the device syncs by its other triggers alone. */
  openEventSource: OpenEventSource | null;
  /** The feed moved on the server, or the stream (re)opened and may have missed a move: pull now. */
  onChanged(): void;
  timers: SyncTimers;
  maxBackoffMs: number;
}

function isShown(): boolean {
  return typeof document === 'undefined' || document.visibilityState !== 'hidden';
}

function closedReason(data: unknown): SyncEventsClosedReason | null {
  try {
    const parsed: unknown = JSON.parse(String(data));
    if (parsed && typeof parsed === 'object' && 'reason' in parsed)
      return parsed.reason as SyncEventsClosedReason;
  } catch {
    // Not the server's JSON: treated as the stream going down.
  }
  return null;
}

export type LiveUpdates = ReturnType<typeof createLiveUpdates>;

export function createLiveUpdates(options: LiveUpdatesOptions) {
  const { http, connectivity, timers } = options;
  let started = false;
  let source: LiveEventSource | null = null;
  let open = false;
  /** Bumped whenever the stream is given up: answers of a ticket asked for before then are ignored. */
  let attempt = 0;
  let asking = false;
  let retryTimer: unknown;
  let failures = 0;
  let stopWatching: (() => void) | null = null;

  /** A hidden tab leaves the stream to the ones shown: it syncs when shown again anyway. */
  const wanted = () =>
    started && options.openEventSource !== null && http.hasToken() && connectivity.isOnline() && isShown();

  /** Opens the stream when it should be and isn't; closes it when it shouldn't be. */
  function update(): void {
    if (!wanted()) return disconnect();
    if (source || asking || retryTimer !== undefined) return;
    void connect();
  }

  function disconnect(): void {
    attempt += 1;
    asking = false;
    source?.close();
    source = null;
    open = false;
    timers.clearTimeout(retryTimer);
    retryTimer = undefined;
  }

  function retryLater(minimumMs: number | null): void {
    source?.close();
    source = null;
    open = false;
    failures += 1;
    const delay = backoffMs(failures, options.maxBackoffMs, timers.random(), minimumMs);
    timers.clearTimeout(retryTimer);
    retryTimer = timers.setTimeout(() => {
      retryTimer = undefined;
      update();
    }, delay);
  }

  async function connect(): Promise<void> {
    const mine = ++attempt;
    asking = true;
    let ticket: string;
    try {
      ({ ticket } = await http.request<SyncEventsTicketResponse>('POST', '/sync/events/ticket'));
    } catch (error) {
      if (mine !== attempt) return;
      asking = false;
      // A 401 ended the session (the HTTP client signs out): the next sign-in starts the stream again.
      if (error instanceof ApiError && error.status === 401) return;
      retryLater(error instanceof ApiError ? error.retryAfterMs : null);
      return;
    }
    if (mine !== attempt) return;
    asking = false;
    const opened = options.openEventSource?.(http.url('/sync/events', { ticket }));
    if (!opened || !wanted()) return void opened?.close();
    source = opened;
    const current = () => source === opened;
    opened.addEventListener(SYNC_EVENTS.ready, () => {
      if (!current()) return;
      open = true;
      failures = 0;
      // Writes landed while there was no stream: this pull catches up with them.
      options.onChanged();
    });
    opened.addEventListener(SYNC_EVENTS.changed, () => {
      if (current()) options.onChanged();
    });
    opened.addEventListener(SYNC_EVENTS.closed, (event) => {
      if (!current()) return;
      const reason = closedReason(event.data);
      if (reason === 'signed-out') {
        // The session ended: the pull meets the 401 and signs the device out as any request would.
        options.onChanged();
        retryLater(options.maxBackoffMs);
      } else if (reason === 'replaced') {
        // The user's newer tabs and devices hold the streams: this one syncs by its timers for a while.
        retryLater(options.maxBackoffMs);
      } else retryLater(null);
    });
    // Refused (401 for a ticket gone stale, 503 at the server's cap), cut by a proxy, or the network
    // dropped: EventSource would retry the same address, whose ticket expires; a fresh one is asked for.
    opened.addEventListener('error', () => {
      if (current()) retryLater(null);
    });
  }

  return {
    /** Starts following the session, the network and the tab's visibility. */
    start(): void {
      if (started) return;
      started = true;
      const unsubscribe = connectivity.subscribe(update);
      const onVisibility = () => update();
      if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisibility);
      stopWatching = () => {
        unsubscribe();
        if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisibility);
      };
      update();
    },
    /** Closes the stream for good (sign-out, the page going away). */
    stop(): void {
      started = false;
      stopWatching?.();
      stopWatching = null;
      failures = 0;
      disconnect();
    },
    /** The session may have changed (sign-in, a 401): open or close the stream to match. */
    update,
    /** The stream is open and has said it is ready. */
    isOpen: () => open,
  };
}
