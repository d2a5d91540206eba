// An EventSource for tests in Node (which has none): a real GET of the stream over fetch, its named events
// handed to listeners as they arrive. Like a browser's, it reports 'error' when it is refused or when the
// stream ends; unlike one, it never reconnects by itself (the app closes it on 'error' and opens another).
import type { LiveEventSource, OpenEventSource } from '../sync/live-updates';

export interface FetchEventSources {
  open: OpenEventSource;
  /** The addresses opened, in order (each with its ticket). */
  opened: string[];
  /** The streams still open. */
  live(): number;
}

export function fetchEventSources(): FetchEventSources {
  const opened: string[] = [];
  let live = 0;
  const open = (url: string): LiveEventSource => {
    opened.push(url);
    const listeners = new Map<string, Set<(event: { data?: unknown }) => void>>();
    const controller = new AbortController();
    let closed = false;
    const emit = (type: string, data?: string) => {
      if (closed) return;
      for (const listener of [...(listeners.get(type) ?? [])]) listener({ data });
    };
    live += 1;
    void (async () => {
      try {
        const response = await fetch(url, {
          headers: { accept: 'text/event-stream' },
          signal: controller.signal,
        });
        if (response.status !== 200 || !response.body) return emit('error');
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let type = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) type = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            if (data.length > 0) emit(type, data.join('\n'));
          }
        }
        emit('error');
      } catch {
        emit('error');
      } finally {
        live -= 1;
      }
    })();
    return {
      addEventListener(type, listener) {
        const set = listeners.get(type) ?? new Set();
        set.add(listener);
        listeners.set(type, set);
      },
      close() {
        closed = true;
        controller.abort();
      },
    };
  };
  return { open, opened, live: () => live };
}
