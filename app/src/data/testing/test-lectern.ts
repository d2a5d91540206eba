// A Lectern on an in-memory IndexedDB (fake-indexeddb), for tests and benchmarks in Node: each call is a
// separate device with its own database, token and network switch.
import './install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { FetchLike, TokenStorage } from '../api/http-client';
import { createLectern, type Lectern, type LecternOptions } from '../lectern';
import { manualConnectivity } from '../sync/connectivity';
import { inPageLock } from '../sync/sync-lock';

export function memoryStorage(): TokenStorage & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

/** A network that can be cut, and can drop the answer of a request the server has already applied. */
export function switchableFetch(inner: FetchLike = (url, init) => fetch(url, init)) {
  const state = { online: true, dropAnswers: 0, requests: [] as { method: string; url: string }[] };
  const wrapped: FetchLike = async (url, init) => {
    state.requests.push({ method: init.method ?? 'GET', url });
    if (!state.online) throw new TypeError('Failed to fetch');
    const response = await inner(url, init);
    if (state.dropAnswers > 0) {
      state.dropAnswers -= 1;
      throw new TypeError('network connection was lost');
    }
    return response;
  };
  return { fetch: wrapped, state };
}

export interface TestDevice {
  lectern: Lectern;
  storage: ReturnType<typeof memoryStorage>;
  network: ReturnType<typeof switchableFetch>;
  connectivity: ReturnType<typeof manualConnectivity>;
  /** Cuts or restores the network as the browser would see it. */
  setOnline(online: boolean): void;
}

let deviceCount = 0;

export function createTestDevice(options: Partial<LecternOptions> & { fetch?: FetchLike } = {}): TestDevice {
  deviceCount += 1;
  const storage = memoryStorage();
  const network = switchableFetch(options.fetch);
  const connectivity = manualConnectivity(true);
  const lectern = createLectern({
    baseUrl: 'http://127.0.0.1:9',
    dbName: `lectern-test-${deviceCount}`,
    indexedDB: { indexedDB: new IDBFactory(), IDBKeyRange },
    tokenStorage: storage,
    signInStorage: memoryStorage(),
    connectivity,
    lock: inPageLock(),
    // Tests sync when they say so.
    backgroundSync: false,
    ...options,
    fetch: network.fetch,
  });
  return {
    lectern,
    storage,
    network,
    connectivity,
    setOnline(online) {
      network.state.online = online;
      connectivity.set(online);
    },
  };
}
