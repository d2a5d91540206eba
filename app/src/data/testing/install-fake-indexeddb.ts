// Dexie reads the global indexedDB once, when it loads, and its liveQuery only runs where one exists:
// import this before anything that imports Dexie. Each test device still gets its own factory.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';

if (!globalThis.indexedDB) Object.assign(globalThis, { indexedDB: new IDBFactory(), IDBKeyRange });
