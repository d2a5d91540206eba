// Dexie reads the global indexedDB once, when it loads, and its liveQuery only runs where one exists: this
// runs before anything that imports Dexie. The app's test project installs it before every test file
// (vitest.config.ts, setupFiles); scripts outside it import it first. Each test device still gets its own
// factory.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';

if (!globalThis.indexedDB) Object.assign(globalThis, { indexedDB: new IDBFactory(), IDBKeyRange });
