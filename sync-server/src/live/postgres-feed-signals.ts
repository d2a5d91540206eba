// The feed signal across nodes on PostgreSQL (live/feed-signals.ts says what the signal is): every node
// keeps one dedicated connection LISTENing on one channel, and `publish` sends the users as a NOTIFY on it,
// which PostgreSQL hands to every listening node, this one included.
//
// One NOTIFY per publish, its payload a JSON array of user ids, split into several only past the payload
// limit (8,000 bytes; a few hundred ids a notification): a commit usually touches one user and sometimes a
// few (a shared list), so batching costs nothing and sends one message where one-per-user would send many.
//
// Publishing goes through a small pool of its own, not the listening connection: while that one is down
// and reconnecting, this node's writes still reach the other nodes. A notification sent while this node
// wasn't listening is lost to it, so after every reconnect each local listener hears a "maybe missed"
// nudge and its device pulls: a pull too many costs nothing, a change unheard costs a device its liveness.
import pg from 'pg';
import { FeedListeners, type FeedSignals } from './feed-signals';

/** The channel every node LISTENs on and NOTIFYs. */
export const FEED_SIGNAL_CHANNEL = 'lectern_feed';

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; a margin under it. */
export const NOTIFY_PAYLOAD_MAX_BYTES = 7_900;

export interface PostgresFeedSignalsOptions {
  /** Shown in pg_stat_activity for this node's connections (tests tell two nodes apart by it). */
  applicationName?: string;
  /** The first reconnect waits this long, each further one twice as long up to `reconnectMaxMs`. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Told of every failure the signal survives (a dropped connection, a refused NOTIFY). */
  onError?: (error: unknown) => void;
}

/**
 * The user ids as NOTIFY payloads: JSON arrays, each under the payload limit. An id alone over the limit
 * can't be sent and is left out (ids are UUIDs, far below it).
 */
export function notifyPayloads(userIds: readonly string[]): string[] {
  const payloads: string[] = [];
  let batch: string[] = [];
  let bytes = 2; // the brackets
  for (const userId of new Set(userIds)) {
    const size = Buffer.byteLength(JSON.stringify(userId), 'utf8') + 1; // and its comma
    if (size + 2 > NOTIFY_PAYLOAD_MAX_BYTES) continue;
    if (bytes + size > NOTIFY_PAYLOAD_MAX_BYTES) {
      payloads.push(JSON.stringify(batch));
      batch = [];
      bytes = 2;
    }
    batch.push(userId);
    bytes += size;
  }
  if (batch.length > 0) payloads.push(JSON.stringify(batch));
  return payloads;
}

/** The user ids a payload names; nothing for a payload this code didn't send. */
function usersOf(payload: string | undefined): string[] {
  try {
    const value: unknown = JSON.parse(payload ?? '');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The feed signal over LISTEN/NOTIFY on the database at `url`. Answers once this node listens; a database
 * it can't reach at start fails the start (a node that would never hear other nodes mustn't run silently).
 */
export async function postgresFeedSignals(
  url: string,
  options: PostgresFeedSignalsOptions = {},
): Promise<FeedSignals> {
  const applicationName = options.applicationName ?? 'lectern-feed-signals';
  const reconnectMinMs = options.reconnectMinMs ?? 100;
  const reconnectMaxMs = options.reconnectMaxMs ?? 5_000;
  const onError = options.onError ?? (() => {});
  const listeners = new FeedListeners();
  const publisher = new pg.Pool({ connectionString: url, max: 2, application_name: applicationName });
  // An idle publishing connection the server drops is replaced on the next publish; without a listener,
  // pg's 'error' event would end the process.
  publisher.on('error', onError);
  const publishing = new Set<Promise<unknown>>();
  let listening: pg.Client | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;
  /** A reconnect under way, which close() waits for so that it leaves no connection behind. */
  let connecting: Promise<void> = Promise.resolve();
  let failures = 0;
  let closed = false;

  /** A connection that LISTENs, handing what it hears to this node's listeners; ends it if LISTEN fails. */
  const listen = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url, application_name: applicationName });
    client.on('notification', (message) => {
      if (message.channel === FEED_SIGNAL_CHANNEL) listeners.deliver(usersOf(message.payload));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${FEED_SIGNAL_CHANNEL}`);
    } catch (error) {
      client.on('error', () => {});
      await client.end().catch(() => {});
      throw error;
    }
    // Terminated, a restart, a network cut: pg emits 'error' then 'end', or 'end' alone.
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (error) onError(error);
      if (listening === client) listening = null;
      if (!closed) scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    return client;
  };

  const scheduleReconnect = () => {
    if (closed || reconnectTimer) return;
    const wait = Math.min(reconnectMaxMs, reconnectMinMs * 2 ** failures);
    failures += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      connecting = listen().then(
        async (client) => {
          if (closed) return void (await client.end().catch(() => {}));
          listening = client;
          failures = 0;
          // Whatever was sent while this node wasn't listening: every local device pulls once.
          listeners.deliverToAll();
        },
        (error: unknown) => {
          onError(error);
          scheduleReconnect();
        },
      );
    }, wait);
    reconnectTimer.unref();
  };

  listening = await listen();

  return {
    publish(userIds) {
      if (closed || userIds.length === 0) return;
      for (const payload of notifyPayloads(userIds)) {
        const sent = publisher
          .query('SELECT pg_notify($1, $2)', [FEED_SIGNAL_CHANNEL, payload])
          .catch(onError)
          .finally(() => publishing.delete(sent));
        publishing.add(sent);
      }
    },
    subscribe: (userId, listener) => listeners.subscribe(userId, listener),
    listenerCount: () => listeners.size,
    async close() {
      if (closed) return;
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      const client = listening;
      listening = null;
      await connecting;
      await Promise.allSettled([...publishing]);
      await Promise.allSettled([client?.end(), publisher.end()]);
    },
  };
}
