// The scan lists the images of what was written since it last looked, reading each body once: an article
// and its body written together are read as the body and its article, not again for the row; a row written
// again alone is read with the body it has on the device, and a body written alone with its row.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { LecternDb } from '../db/lectern-db';
import { nextRev, putArticles } from '../db/local-store';
import { articleSummary } from '../testing/article-summary';
import { rememberReader } from '../testing/device-user';
import { scanArticleImages } from './image-scan';

const image = (article: string, n: number) => `/api/images/${article}/${String(n).repeat(64)}.png`;
const body = (...paths: string[]) => paths.map((path) => `<p><img src="${path}"></p>`).join('');

async function listed(db: LecternDb): Promise<string[]> {
  return ((await db.offline_images.toCollection().primaryKeys()) as string[]).sort();
}

describe('scanArticleImages', () => {
  it('lists the images of new articles reading each body once, then only what changed', async () => {
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
    const bodiesReadById = vi.spyOn(db.article_contents, 'bulkGet');
    expect(await scanArticleImages(db)).toBe(50);
    // The bodies come as ranges, and by their keys the rest of a rev part-read: each once, never all fifty
    // again for their rows.
    const byId = bodiesReadById.mock.calls.flatMap(([ids]) => ids);
    expect(byId.length).toBeLessThan(50);
    expect(new Set(byId).size).toBe(byId.length);
    expect(await listed(db)).toHaveLength(100);
    bodiesReadById.mockClear();

    // A row written again alone (its lead image changed): read with the body it has.
    await putArticles(db, [articleSummary('a7', { image_url: image('a7', 3) })]);
    // A body written alone (its picture changed), as a new device's bodies come.
    await db.article_contents.put({ id: 'a9', content: body(image('a9', 4)), rev: await nextRev(db) });
    expect(await scanArticleImages(db)).toBe(2);
    expect(bodiesReadById.mock.calls.flatMap(([ids]) => ids)).toEqual(['a7']);
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
