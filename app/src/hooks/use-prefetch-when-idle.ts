// Loads a lazily split module in the page's first idle moment after a screen shows, so opening the part of
// the screen that needs it (the analytics and their chart) doesn't wait for the download and compile.
// What the screen first shows never waits for it: it is not in the screen's first download.
import { useEffect } from 'react';

export function usePrefetchWhenIdle(load: () => Promise<unknown>): void {
  useEffect(() => {
    const prefetch = () => {
      // A failed prefetch is no failure: opening the part loads it again, and says so if that fails.
      load().catch(() => undefined);
    };
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(prefetch, { timeout: 5_000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(prefetch, 1_000);
    return () => clearTimeout(timer);
  }, [load]);
}
