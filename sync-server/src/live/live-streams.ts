// The event streams open on this node (GET /api/sync/events): their limits, the heartbeat that keeps
// proxies from closing an idle one and notices a session that ended, and their end, whether the device
// goes away, the user opens one stream too many, or the server stops.
import { SYNC_EVENTS, type SyncEventsClosedReason } from '@lectern/shared-schema';
import type { ServerResponse } from 'node:http';
import type { FeedSignals } from './feed-signals';

export interface LiveStreamLimits {
  /** Streams one user keeps on this node; opening one more closes their oldest. */
  perUser: number;
  /** Streams this node keeps in all; beyond it a new one is refused (503). */
  total: number;
  /** How often every stream gets a comment line (and its session is checked). */
  heartbeatMs: number;
}

/** Whether the stream's session still holds: not revoked, not expired, its account not deleted. */
export type SessionCheck = (userId: string, sessionId: string) => boolean | Promise<boolean>;

interface OpenStream {
  userId: string;
  sessionId: string;
  response: ServerResponse;
  stopListening: () => void;
  /** A `changed` is queued: more commits before it leaves make no further event. */
  nudged: boolean;
}

/** A device that stops reading while this much waits unsent is cut off rather than buffered for. */
const MAX_UNSENT_BYTES = 64 * 1024;

/**
 * Sent on every stream: no caching, no transformation by a proxy (compressing would hold events back until
 * a block fills) and no buffering by nginx, so each event reaches the device when it is written.
 */
const STREAM_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  'x-accel-buffering': 'no',
};

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const HEARTBEAT = ': heartbeat\n\n';
const CHANGED = event(SYNC_EVENTS.changed, {});

export class LiveStreams {
  private readonly streams = new Set<OpenStream>();
  /** Each user's streams, oldest first (a Set keeps the order they were added in). */
  private readonly byUser = new Map<string, Set<OpenStream>>();
  private heartbeat: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(
    private readonly signals: FeedSignals,
    private readonly limits: LiveStreamLimits,
    private readonly sessionHolds: SessionCheck,
  ) {}

  /** Streams open on this node. */
  get size(): number {
    return this.streams.size;
  }

  openFor(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /**
   * Whether the user may open a stream now: the node is below its cap, or the new stream takes the place of
   * one of the user's own (at their per-user cap). Never while the server shuts down.
   */
  hasRoomFor(userId: string): boolean {
    if (this.closing) return false;
    return this.streams.size < this.limits.total || this.openFor(userId) >= this.limits.perUser;
  }

  /**
   * Starts the stream on a response nothing has been written to. `headers` are the ones the server sends
   * on every answer (security headers), to which the stream's own are added.
   */
  open(
    response: ServerResponse,
    headers: Record<string, string | number | string[] | undefined>,
    userId: string,
    sessionId: string,
  ): void {
    // The device went away while its ticket was being checked: 'close' has fired already, and a stream
    // registered now would never be let go.
    if (response.destroyed || !response.socket || response.socket.destroyed) return;
    // Many tabs and devices: the newest one gets live updates, the oldest (most likely a tab long left, or
    // a connection that died without a word) goes back to syncing by its timers.
    for (const oldest of this.byUser.get(userId) ?? []) {
      if (this.openFor(userId) < this.limits.perUser) break;
      this.end(oldest, 'replaced');
    }
    const mine = this.byUser.get(userId) ?? new Set<OpenStream>();
    this.byUser.set(userId, mine);
    const stream: OpenStream = { userId, sessionId, response, stopListening: () => {}, nudged: false };
    this.streams.add(stream);
    mine.add(stream);
    response.on('close', () => this.forget(stream));
    response.socket?.setNoDelay(true);
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined) response.setHeader(name, value);
    response.writeHead(200, STREAM_HEADERS);
    stream.stopListening = this.signals.subscribe(userId, () => this.nudge(stream));
    this.write(stream, event(SYNC_EVENTS.ready, {}));
    this.heartbeat ??= setInterval(() => this.beat(), this.limits.heartbeatMs);
  }

  /** Ends every stream (the server is closing): each device hears why, then falls back to its timers. */
  closeAll(): void {
    this.closing = true;
    for (const stream of [...this.streams]) this.end(stream, 'shutdown');
  }

  private nudge(stream: OpenStream): void {
    if (stream.nudged) return;
    stream.nudged = true;
    setImmediate(() => {
      stream.nudged = false;
      if (!this.streams.has(stream)) return;
      // An account deleted in that write: its streams end instead of nudging devices signed out already.
      void this.ifSessionHolds(stream, () => this.write(stream, CHANGED));
    });
  }

  private beat(): void {
    for (const stream of [...this.streams]) {
      this.write(stream, HEARTBEAT);
      void this.ifSessionHolds(stream, () => undefined);
    }
  }

  private async ifSessionHolds(stream: OpenStream, then: () => void): Promise<void> {
    let holds: boolean;
    try {
      holds = await this.sessionHolds(stream.userId, stream.sessionId);
    } catch {
      // The database didn't answer: keep the stream, the next heartbeat asks again.
      return;
    }
    if (!this.streams.has(stream)) return;
    if (holds) then();
    else this.end(stream, 'signed-out');
  }

  private write(stream: OpenStream, text: string): void {
    const { response } = stream;
    if (response.writableEnded || response.destroyed) return;
    if (response.writableLength > MAX_UNSENT_BYTES) {
      response.destroy();
      return;
    }
    response.write(text);
  }

  private end(stream: OpenStream, reason: SyncEventsClosedReason): void {
    this.write(stream, event(SYNC_EVENTS.closed, { reason }));
    this.forget(stream);
    stream.response.end();
  }

  /** Drops the stream from every count and stops its listener; runs again harmlessly on 'close'. */
  private forget(stream: OpenStream): void {
    if (!this.streams.delete(stream)) return;
    stream.stopListening();
    const mine = this.byUser.get(stream.userId);
    mine?.delete(stream);
    if (mine?.size === 0) this.byUser.delete(stream.userId);
    if (this.streams.size === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }
}
