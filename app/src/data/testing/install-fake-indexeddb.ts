// Dexie reads the global indexedDB once, when it loads, and its liveQuery only runs where one exists: this
// runs before anything that imports Dexie. The app's test project installs it before every test file
// (vitest.config.ts, setupFiles); test-lectern.ts imports it too, for anything that loads it outside. Each test device still gets its own
// factory.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';

if (!globalThis.indexedDB) Object.assign(globalThis, { indexedDB: new IDBFactory(), IDBKeyRange });
