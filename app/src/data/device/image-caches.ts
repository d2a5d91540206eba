// What the service worker keeps of the user's reading outside the app's database: the article images it
// caches at run time (Cache Storage) and the bookkeeping of their expiry (workbox's IndexedDB). Logout and
// account deletion clear both, so the next person on a shared device sees none of it. The precached app
// shell stays: it holds nothing of the user's and keeps the app opening offline.
import { revokeAllObjectUrls } from './object-urls';

/** The runtime cache of article images (vite.config.ts names it for the service worker). */
export const ARTICLE_IMAGES_CACHE = 'article-images';

const PRECACHE_PREFIX = 'workbox-precache';
/** workbox-expiration's database: one row per cached image, its address and when it was used. */
const EXPIRATION_DB = 'workbox-expiration';

async function deleteRuntimeCaches(): Promise<void> {
  if (typeof caches === 'undefined') return;
  const names = await caches.keys();
  await Promise.all(
    names.filter((name) => !name.startsWith(PRECACHE_PREFIX)).map((name) => caches.delete(name)),
  );
}

/**
 * Empties workbox's expiry records. Cleared rather than deleted: the worker keeps the database open, so
 * a delete would wait for it; and only opened when it exists, so the worker's own upgrade still runs.
 */
async function clearExpiryRecords(): Promise<void> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return;
  const existing = await indexedDB.databases();
  if (!existing.some((info) => info.name === EXPIRATION_DB)) return;
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(EXPIRATION_DB);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  try {
    const stores = [...db.objectStoreNames];
    if (stores.length === 0) return;
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction(stores, 'readwrite');
      for (const store of stores) tx.objectStore(store).clear();
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** Forgets every image of the user's this browser holds outside the app's database. Never throws. */
export async function forgetDeviceImages(): Promise<void> {
  revokeAllObjectUrls();
  await Promise.all([deleteRuntimeCaches(), clearExpiryRecords()].map((step) => step.catch(() => undefined)));
}
