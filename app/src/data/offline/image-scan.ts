// Keeps `offline_images` in step with the articles: which images each synced article has (a new or changed
// article is listed again; `rev` says which changed since the last scan), and none of an article that is
// gone. Reads a few dozen bodies at a time, each once, and yields between batches; idempotent, so a reload
// mid-scan just scans again.
import type { LecternDb } from '../db/lectern-db';
import type { ArticleContentRow, ArticleRow, OfflineImageRow } from '../db/rows';
import { rowsAfter, type RevPosition } from '../db/rev-steps';
import { keptImageAddresses } from './image-addresses';
import { yieldToUi } from './yield-to-ui';

/** Bodies read at a time (a range of them comes in one answer, made ready in one task of the page's). */
const SCAN_BATCH = 20;
/** Article rows read at a time, to find those whose body wasn't read with them (small rows, most skipped). */
const ROWS_BATCH = 200;

/** Lists the images of the articles written since the last scan. Answers how many articles it read. */
export async function scanArticleImages(
  db: LecternDb,
  shouldStop: () => boolean = () => false,
): Promise<number> {
  const since = (await db.getMeta('offlineImagesRev')) ?? 0;
  // Articles and bodies share one rev counter: a body that came on its own (a first sync's) is scanned too.
  const [newestArticle, newestBody] = await Promise.all([
    db.articles.orderBy('rev').lastKey(),
    db.article_contents.orderBy('rev').lastKey(),
  ]);
  const upTo = Math.max(Number(newestArticle ?? 0), Number(newestBody ?? 0));
  if (upTo <= since) {
    await dropImagesOfGoneArticles(db);
    return 0;
  }
  let read = 0;
  // Bodies written since, each with its article, a range read at a time; then the articles written since,
  // reading the body only of one not scanned with it (another rev): an article and its body written
  // together (a sync's page, a new device's cards moved after their bodies) have the body read once.
  /** The rev of each article scanned with its body. */
  const scannedWithBody = new Map<string, number>();
  let bodiesAt: RevPosition = { rev: since, afterId: null };
  for (;;) {
    if (shouldStop()) return read;
    // One snapshot: a body dropped or an article written again after it was read shows as a new rev.
    const from = bodiesAt;
    const { contents, articles, next, done } = await db.transaction(
      'r',
      [db.article_contents, db.articles],
      async () => {
        const step = await rowsAfter(db.article_contents, from, SCAN_BATCH);
        const owners = await db.articles.bulkGet(step.rows.map((content) => content.id));
        return { contents: step.rows, articles: owners, next: step.next, done: step.done };
      },
    );
    for (const article of articles) if (article) scannedWithBody.set(article.id, article.rev ?? 0);
    await scanBatch(db, articles, contents);
    read += contents.length;
    bodiesAt = next;
    if (done) break;
    await yieldToUi();
  }
  let rowsAt: RevPosition = { rev: since, afterId: null };
  for (;;) {
    if (shouldStop()) return read;
    const { rows, next, done } = await rowsAfter(db.articles, rowsAt, ROWS_BATCH);
    const changed = rows.filter((row) => scannedWithBody.get(row.id) !== (row.rev ?? 0));
    if (changed.length > 0) {
      const contents = await db.article_contents.bulkGet(changed.map((row) => row.id));
      await scanBatch(db, changed, contents);
      await yieldToUi();
    }
    read += changed.length;
    rowsAt = next;
    if (done) break;
  }
  await dropImagesOfGoneArticles(db);
  // Only now: a scan cut short by a reload starts again from the same point.
  const current = (await db.getMeta('offlineImagesRev')) ?? 0;
  if (upTo > current) await db.setMetaWhileSignedIn('offlineImagesRev', upTo);
  return read;
}

/** Lists the images of these articles (undefined: gone) as their bodies (undefined: none) hold them. */
async function scanBatch(
  db: LecternDb,
  articles: readonly (ArticleRow | undefined)[],
  contents: readonly (ArticleContentRow | undefined)[],
): Promise<void> {
  const wanted = new Map<string, { articleId: string; createdAt: string }>();
  const scanned = new Set<string>();
  articles.forEach((article, index) => {
    if (!article) return;
    scanned.add(article.id);
    for (const path of keptImageAddresses(article, contents[index]?.content))
      wanted.set(path, { articleId: article.id, createdAt: article.created_at });
  });
  if (scanned.size === 0) return;
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
