// A Server-Sent Events client for tests: one real HTTP connection per stream, its events and heartbeat
// comments recorded as they arrive, with the time each came.
import { request } from 'node:http';

export interface StreamEvent {
  event: string;
  data: string;
  /** performance.now() when it arrived. */
  at: number;
}

export interface OpenStream {
  status: 200;
  headers: Record<string, string | string[] | undefined>;
  events: StreamEvent[];
  /** Times the heartbeat comments arrived. */
  heartbeats: number[];
  /** Resolves when the server ends the stream or the connection drops. */
  ended: Promise<void>;
  isEnded(): boolean;
  /** The first event of this name from `from` on (an index into `events`), waiting up to `withinMs`. */
  next(name: string, options?: { from?: number; withinMs?: number }): Promise<StreamEvent>;
  /** The client goes away (the device closed the tab). */
  close(): void;
}

export interface RefusedStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body. */
  body: unknown;
}

/** Opens `GET {url}` as EventSource would; answers the open stream, or the refusal with its body. */
export function openEventStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<OpenStream | RefusedStream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false });
    req.on('error', reject);
    req.on('response', (response) => {
      response.setEncoding('utf8');
      if (response.statusCode !== 200) {
        let text = '';
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(text) }),
        );
        return;
      }
      const events: StreamEvent[] = [];
      const heartbeats: number[] = [];
      const waiters = new Set<() => void>();
      let ended = false;
      let buffer = '';
      const wake = () => {
        for (const waiter of [...waiters]) waiter();
      };
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) heartbeats.push(performance.now());
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length > 0) events.push({ event, data: data.join('\n'), at: performance.now() });
        }
        wake();
      });
      const endedPromise = new Promise<void>((done) => {
        const finish = () => {
          ended = true;
          wake();
          done();
        };
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      });
      resolve({
        status: 200,
        headers: response.headers,
        events,
        heartbeats,
        ended: endedPromise,
        isEnded: () => ended,
        next(name, { from = 0, withinMs = 2000 } = {}) {
          return new Promise((found, fail) => {
            const look = () => {
              const hit = events.slice(from).find((entry) => entry.event === name);
              if (hit) return finish(() => found(hit));
              if (ended) return finish(() => fail(new Error(`the stream ended without a "${name}" event`)));
            };
            const timer = setTimeout(
              () => finish(() => fail(new Error(`no "${name}" event within ${withinMs} ms`))),
              withinMs,
            );
            const finish = (then: () => void) => {
              clearTimeout(timer);
              waiters.delete(look);
              then();
            };
            waiters.add(look);
            look();
          });
        },
        close: () => req.destroy(),
      });
    });
    req.end();
  });
}

/** The stream, or a failed test naming what the server answered instead. */
export async function openedStream(url: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const stream = await openEventStream(url, headers);
  if (stream.status !== 200)
    throw new Error(
      `the stream was refused: ${stream.status} ${JSON.stringify((stream as RefusedStream).body)}`,
    );
  return stream as OpenStream;
}
