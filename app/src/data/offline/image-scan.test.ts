// The scan lists the images of what was written since it last looked: an article and its body written
// together, a row written again alone (read with the body it has on the device), a body written alone (read
// with its row); nothing when nothing was written.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { LecternDb } from '../db/lectern-db';
import { nextRev, putArticles } from '../db/local-store';
import { putBodies } from '../db/bodies';
import { articleSummary } from '../testing/article-summary';
import { rememberReader } from '../testing/device-user';
import { scanArticleImages } from './image-scan';

const image = (article: string, n: number) => `/api/images/${article}/${String(n).repeat(64)}.png`;
const body = (...paths: string[]) => paths.map((path) => `<p><img src="${path}"></p>`).join('');

async function listed(db: LecternDb): Promise<string[]> {
  return ((await db.offline_images.toCollection().primaryKeys()) as string[]).sort();
}

describe('scanArticleImages', () => {
  it('lists the images of new articles, then only of what changed', async () => {
    const db = new LecternDb(`scan-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await rememberReader(db);
    // Fifty articles written with their bodies, as a sync's page: more than a batch of the scan.
    await putArticles(
      db,
      Array.from({ length: 50 }, (_, n) => ({
        ...articleSummary(`a${n}`, { image_url: image(`a${n}`, 1) }),
        content: body(image(`a${n}`, 2)),
      })),
    );
    expect(await scanArticleImages(db)).toBe(50);
    expect(await listed(db)).toHaveLength(100);

    // A row written again alone (its lead image changed): read with the body it has.
    await putArticles(db, [articleSummary('a7', { image_url: image('a7', 3) })]);
    // A body written alone (its picture changed), as a new device's bodies come.
    await putBodies(db, [{ id: 'a9', content: body(image('a9', 4)), rev: await nextRev(db) }]);
    expect(await scanArticleImages(db)).toBe(2);
    const paths = await listed(db);
    expect(paths).toHaveLength(100);
    expect(paths).toContain(image('a7', 2));
    expect(paths).toContain(image('a7', 3));
    expect(paths).not.toContain(image('a7', 1));
    expect(paths).toContain(image('a9', 1));
    expect(paths).toContain(image('a9', 4));
    expect(paths).not.toContain(image('a9', 2));
    // Nothing written since: nothing read.
    expect(await scanArticleImages(db)).toBe(0);
    db.close();
  });
});
