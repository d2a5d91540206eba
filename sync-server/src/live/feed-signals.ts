// Live updates between devices: the signal that a user's change feed moved. A write's transaction commits,
// the database hands its users to `publish`, and every open stream of those users, on every node, hears it
// (routes/sync-events.ts) and tells its device to pull. The signal carries nothing but the user: the
// device reads what changed from the feed itself, so a lost or doubled signal costs one pull at most.
//
// On SQLite one process owns the database, so the signal stays in that process (inProcessFeedSignals).
// On PostgreSQL several nodes share it: an implementation over LISTEN/NOTIFY keeps a FeedListeners for its
// own streams, sends `publish` as NOTIFY on one channel (user ids as the payload, split under its 8,000-byte
// limit), and hands every notification it LISTENs to, its own included, to `listeners.deliver`.

export type FeedListener = () => void;

export interface FeedSignals {
  /**
   * The feeds of these users moved (a transaction that wrote to them committed). Called after COMMIT, on
   * the writer's path: it returns at once and never throws, whatever happens to the signal.
   */
  publish(userIds: readonly string[]): void;
  /** Calls `listener` whenever the user's feed moves, on any node; answers the function that stops it. */
  subscribe(userId: string, listener: FeedListener): () => void;
  /** Listeners subscribed on this node (a gauge: a stream that ends must leave none behind). */
  listenerCount(): number;
  /** Stops the signal (server shutdown); later publishes are dropped. */
  close(): Promise<void>;
}

/** The listeners of one node, by user: what every FeedSignals implementation delivers to. */
export class FeedListeners {
  private readonly byUser = new Map<string, Set<FeedListener>>();
  private count = 0;

  subscribe(userId: string, listener: FeedListener): () => void {
    let listeners = this.byUser.get(userId);
    if (!listeners) {
      listeners = new Set();
      this.byUser.set(userId, listeners);
    }
    // A wrapper per subscription, so the same function subscribed twice is two subscriptions.
    const entry: FeedListener = () => listener();
    listeners.add(entry);
    this.count += 1;
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      this.count -= 1;
      listeners.delete(entry);
      if (listeners.size === 0 && this.byUser.get(userId) === listeners) this.byUser.delete(userId);
    };
  }

  /** Calls the listeners of these users; one failing doesn't keep the others from hearing it. */
  deliver(userIds: Iterable<string>): void {
    for (const userId of new Set(userIds)) {
      const listeners = this.byUser.get(userId);
      if (!listeners) continue;
      for (const listener of [...listeners]) {
        try {
          listener();
        } catch {
          // A listener writes to its own stream; a stream that broke is closed by its own 'close' event.
        }
      }
    }
  }

  /** Calls every listener on this node (a reconnect: whatever was signalled meanwhile may be missed). */
  deliverToAll(): void {
    this.deliver(this.byUser.keys());
  }

  get size(): number {
    return this.count;
  }
}

/** The signal within one process: the database's writer and the streams are in the same place (SQLite). */
export function inProcessFeedSignals(): FeedSignals {
  const listeners = new FeedListeners();
  let closed = false;
  return {
    publish(userIds) {
      if (closed || userIds.length === 0) return;
      // After the write's caller has its answer: the commit path doesn't wait on streams.
      const users = [...userIds];
      setImmediate(() => listeners.deliver(users));
    },
    subscribe: (userId, listener) => listeners.subscribe(userId, listener),
    listenerCount: () => listeners.size,
    async close() {
      closed = true;
    },
  };
}
