// Whether the device believes it has a network: the browser's online flag, watched through its events.

export interface Connectivity {
  isOnline(): boolean;
  /** Calls back when the flag may have changed; answers a function that stops listening. */
  subscribe(listener: () => void): () => void;
}

export function browserConnectivity(): Connectivity {
  return {
    isOnline: () => typeof navigator === 'undefined' || navigator.onLine !== false,
    subscribe(listener) {
      if (typeof window === 'undefined') return () => {};
      window.addEventListener('online', listener);
      window.addEventListener('offline', listener);
      return () => {
        window.removeEventListener('online', listener);
        window.removeEventListener('offline', listener);
      };
    },
  };
}

/** A switch for tests and tools: starts online, `set(false)` takes the device offline. */
export function manualConnectivity(initial = true): Connectivity & { set(online: boolean): void } {
  let online = initial;
  const listeners = new Set<() => void>();
  return {
    isOnline: () => online,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(value) {
      online = value;
      for (const listener of listeners) listener();
    },
  };
}
