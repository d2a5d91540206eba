// Keeps `offline_images` in step with the articles: which images each synced article has (a new or changed
// article is listed again; `rev` says which changed since the last scan), and none of an article that is
// gone. Reads a few dozen bodies at a time and yields between batches; idempotent, so a reload mid-scan
// just scans again.
import { bodiesOf, bodyIdsWrittenBetween, lastBodyRev } from '../db/bodies';
import type { LecternDb } from '../db/lectern-db';
import type { OfflineImageRow } from '../db/rows';
import { keptImageAddresses } from './image-addresses';
import { yieldToUi } from './yield-to-ui';

const SCAN_BATCH = 20;

/** Lists the images of the articles written since the last scan. Answers how many articles it read. */
export async function scanArticleImages(
  db: LecternDb,
  shouldStop: () => boolean = () => false,
): Promise<number> {
  const since = (await db.getMeta('offlineImagesRev')) ?? 0;
  // Articles and bodies share one rev counter: a body that came on its own (a first sync's) is scanned too.
  const [newestArticle, newestBody] = await Promise.all([
    db.articles.orderBy('rev').lastKey(),
    lastBodyRev(db),
  ]);
  const upTo = Math.max(Number(newestArticle ?? 0), Number(newestBody ?? 0));
  if (upTo <= since) {
    await dropImagesOfGoneArticles(db);
    return 0;
  }
  const [written, bodies] = await Promise.all([
    db.articles.where('rev').between(since, upTo, false, true).primaryKeys(),
    bodyIdsWrittenBetween(db, since, upTo),
  ]);
  const ids = [...new Set([...written, ...bodies])];
  for (let i = 0; i < ids.length; i += SCAN_BATCH) {
    if (shouldStop()) return i;
    await scanBatch(db, ids.slice(i, i + SCAN_BATCH));
    await yieldToUi();
  }
  await dropImagesOfGoneArticles(db);
  // Only now: a scan cut short by a reload starts again from the same point.
  const current = (await db.getMeta('offlineImagesRev')) ?? 0;
  if (upTo > current) await db.setMetaWhileSignedIn('offlineImagesRev', upTo);
  return ids.length;
}

async function scanBatch(db: LecternDb, ids: string[]): Promise<void> {
  const [articles, contents] = await Promise.all([db.articles.bulkGet(ids), bodiesOf(db, ids)]);
  const wanted = new Map<string, { articleId: string; createdAt: string }>();
  const scanned = new Set<string>();
  articles.forEach((article, index) => {
    if (!article) return;
    scanned.add(article.id);
    for (const path of keptImageAddresses(article, contents[index]?.content))
      wanted.set(path, { articleId: article.id, createdAt: article.created_at });
  });
  await db.transaction('rw', db.offlineTables, async () => {
    const existing = await db.offline_images
      .where('article_id')
      .anyOf([...scanned])
      .toArray();
    const kept = new Map(existing.map((row) => [row.path, row]));
    const gone = existing.filter((row) => !wanted.has(row.path)).map((row) => row.path);
    const rows: OfflineImageRow[] = [];
    for (const [path, { articleId, createdAt }] of wanted) {
      const row = kept.get(path);
      if (!row) rows.push({ path, article_id: articleId, created_at: createdAt, state: 'wanted', size: 0 });
      // Saved again: the article moved to the top, and its images with it.
      else if (row.created_at !== createdAt) rows.push({ ...row, created_at: createdAt });
    }
    if (gone.length > 0) {
      await db.offline_images.bulkDelete(gone);
      await db.image_files.bulkDelete(gone);
    }
    if (rows.length > 0) await db.offline_images.bulkPut(rows);
  });
}

/** An article deleted (here or on another device) takes its images off the device. */
async function dropImagesOfGoneArticles(db: LecternDb): Promise<void> {
  const owners = (await db.offline_images.orderBy('article_id').uniqueKeys()) as string[];
  if (owners.length === 0) return;
  const present = new Set(await db.articles.where(':id').anyOf(owners).primaryKeys());
  const gone = owners.filter((id) => !present.has(id));
  if (gone.length === 0) return;
  await db.transaction('rw', db.offlineTables, async () => {
    const paths = await db.offline_images.where('article_id').anyOf(gone).primaryKeys();
    await db.offline_images.bulkDelete(paths);
    await db.image_files.bulkDelete(paths);
  });
}
