// @vitest-environment happy-dom
// Back to a page kept in the back/forward cache: another page of the app wrote meanwhile (the reader marked
// an article read), unseen by this page's live queries. `pageshow` with `persisted` makes them read again.
import '../testing/install-fake-indexeddb';
import { Dexie, liveQuery } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDevice, type TestDevice } from '../testing/test-lectern';

let device: TestDevice;
let factory: IDBFactory;
const DB_NAME = 'lectern-page-restore';

beforeEach(() => {
  // Dexie's own handler of the same event is switched off, so this proves the app's.
  Dexie.disableBfCache = true;
  factory = new IDBFactory();
  device = createTestDevice({ dbName: DB_NAME, indexedDB: { indexedDB: factory, IDBKeyRange } });
});

afterEach(async () => {
  await device.lectern.close();
  Dexie.disableBfCache = undefined;
});

/** Marks the article read the way another page does it: its own connection, unseen by this page's Dexie. */
async function markReadElsewhere(id: string): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = factory.open(DB_NAME);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  await new Promise<void>((resolve, reject) => {
    // With the counts that page's Dexie keeps in the same transaction (db/article-counts.ts): one fewer unread.
    const tx = db.transaction(['articles', 'article_counts'], 'readwrite');
    const store = tx.objectStore('articles');
    const counts = tx.objectStore('article_counts');
    const get = store.get(id);
    get.onsuccess = () => store.put({ ...get.result, is_read: true, rev: get.result.rev + 1 });
    const kept = counts.get('library');
    kept.onsuccess = () => counts.put({ ...kept.result, unread: kept.result.unread - 1 });
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

function restoredFromCache(persisted: boolean): void {
  const event = new Event('pageshow');
  Object.defineProperty(event, 'persisted', { value: persisted });
  window.dispatchEvent(event);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('a page shown again from the back/forward cache', () => {
  it('reads its live queries again, so Unread no longer counts the article read elsewhere', async () => {
    const { lectern } = device;
    device.setOnline(false);
    const { article } = await lectern.articles.create({ url: 'https://example.com/japan' });
    lectern.sync.start();

    const unread: number[] = [];
    const subscription = liveQuery(() => lectern.articles.list()).subscribe({
      next: ({ stats }) => unread.push(stats.unread),
    });
    await settle();
    expect(unread.at(-1)).toBe(1);

    await markReadElsewhere(article.id);
    await settle();
    expect(unread.at(-1)).toBe(1); // nothing told this page

    restoredFromCache(false); // an ordinary page load's pageshow changes nothing
    await settle();
    expect(unread.at(-1)).toBe(1);

    restoredFromCache(true);
    await settle();
    expect(unread.at(-1)).toBe(0);
    subscription.unsubscribe();
  });

  it('stops listening once the sync engine stops (sign-out)', async () => {
    const { lectern } = device;
    device.setOnline(false);
    const { article } = await lectern.articles.create({ url: 'https://example.com/kyoto' });
    lectern.sync.start();
    await lectern.sync.stop();
    const unread: number[] = [];
    const subscription = liveQuery(() => lectern.articles.list()).subscribe({
      next: ({ stats }) => unread.push(stats.unread),
    });
    await settle();
    await markReadElsewhere(article.id);
    restoredFromCache(true);
    await settle();
    expect(unread.at(-1)).toBe(1);
    subscription.unsubscribe();
  });
});
