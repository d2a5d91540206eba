// Runs in Chromium: the app's data layer on the browser's own IndexedDB, timed from inside the page.
// bench/app-data-bench.ts builds this file into a page served by the real server and drives it.
import { createLectern } from '../../app/src/data/lectern';

const lectern = createLectern({ dbName: 'lectern-bench' });

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] ?? 0;
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

const bench = {
  /** The floor under an initial sync: the whole change feed fetched and parsed, nothing stored. */
  async feedOnly() {
    const started = performance.now();
    const headers = { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` };
    let since = 0;
    let changes = 0;
    let bytes = 0;
    for (;;) {
      const text = await (await fetch(`/api/sync/changes?since=${since}&limit=1000`, { headers })).text();
      bytes += text.length;
      const page = JSON.parse(text) as { cursor: number; hasMore: boolean; changes: unknown[] };
      changes += page.changes.length;
      since = page.cursor;
      if (!page.hasMore) break;
    }
    return { ms: performance.now() - started, changes, bytes };
  },

  async initialSync() {
    // The sync lists the cards; the bodies follow in the offline library's pass (a first sync): both count.
    const { ms, value } = await timed(async () => {
      const result = await lectern.sync.syncNow();
      await lectern.offline.downloadNow();
      return result;
    });
    return {
      ms,
      result: value,
      articles: await lectern.db.articles.count(),
      highlights: await lectern.db.highlights.count(),
    };
  },

  /** The dashboard's read: filtered list with stats, every tab filter in turn. */
  async dashboardQueries(runs: number) {
    const filters = [
      { archived: false },
      { archived: false, is_read: false },
      { archived: false, is_read: true },
      { archived: false, favorite: true },
      { tag_name: 'bench' },
    ];
    const times: number[] = [];
    let shown = 0;
    for (let i = 0; i < runs; i += 1) {
      const { ms, value } = await timed(() => lectern.articles.list(filters[i % filters.length]));
      times.push(ms);
      shown += value.articles.length;
    }
    return { median: median(times), p95: p95(times), shown };
  },

  async highlightQueries(runs: number) {
    const times: number[] = [];
    for (let i = 0; i < runs; i += 1) times.push((await timed(() => lectern.highlights.list())).ms);
    return { median: median(times), p95: p95(times) };
  },

  /** The first query builds the in-memory index; the rest are what typing in the search box costs. */
  async searches(queries: readonly string[]) {
    const first = await timed(() => lectern.articles.search(queries[0] ?? 'a'));
    const times: number[] = [];
    let found = 0;
    for (const q of queries.slice(1)) {
      const { ms, value } = await timed(() => lectern.articles.search(q));
      times.push(ms);
      found += value.articles.length;
    }
    const highlightFirst = await timed(() => lectern.highlights.search(queries[1] ?? 'a'));
    const highlightTimes: number[] = [];
    for (const q of queries.slice(2, 40))
      highlightTimes.push((await timed(() => lectern.highlights.search(q))).ms);
    return {
      buildMs: first.ms,
      median: median(times),
      p95: p95(times),
      found,
      highlightBuildMs: highlightFirst.ms,
      highlightMedian: median(highlightTimes),
    };
  },

  /** Offline writes of several kinds, all queued (the page is offline when this runs). */
  async queueWrites(count: number) {
    const { articles } = await lectern.articles.list();
    const { list } = await lectern.lists.create({ name: 'Bench list' });
    let made = 1;
    for (let i = 0; made < count; i += 1) {
      const article = articles[i % articles.length]!;
      if (i % 4 === 0)
        await lectern.highlights.create({
          articleId: article.id,
          highlightedText: `passage ${i}`,
          positionStart: i,
          positionEnd: i + 10,
        });
      else if (i % 4 === 1) await lectern.lists.addArticle(list.id, { articleId: article.id });
      else await lectern.articles.update(article.id, { isFavorite: i % 2 === 0, isRead: true });
      made += 1;
    }
    return { queued: await lectern.db.outbox.count(), online: lectern.sync.getState().online };
  },

  startSync: () => lectern.sync.start(),
  pendingWrites: () => lectern.db.outbox.count(),
};

declare global {
  interface Window {
    bench: typeof bench;
  }
}

window.bench = bench;
document.body.dataset.ready = 'true';
