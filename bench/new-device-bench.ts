// Issue 16's new device, in Chromium against the real server on a realistic library of 10,000 articles
// (bench-library: 25 KB median bodies, tags, highlights): a fresh browser profile, kept on disk as a
// reader's is, in a Chromium no Playwright instruments (support/bare-chromium.ts), signs in, and the page
// itself measures (Performance API) the time from the sign-in form's submit to the dashboard listing all
// 10,000 cards, the time until every body is in IndexedDB, the longest task while that runs
// (PerformanceObserver 'longtask'), and the JS heap's peak (performance.memory). The reader's budget is
// "Everything", so the whole library comes. Run: npx tsx bench/new-device-bench.ts
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerUser } from '../sync-server/src/services/users';
import { launchBareChromium, type BarePage } from './support/bare-chromium';
import { anyMissed, recordFigure } from './support/bench-table';
import { benchLibrary, growLibrary } from './support/bench-library';
import { repoRoot, startProcess } from './support/server-process';
import { seedDatabase } from './support/seed-library';

const ARTICLES = 10_000;
const CARDS_TARGET_MS = 2_000;
const BODIES_TARGET_MS = 30_000;
const LONGEST_TASK_TARGET_MS = 100;
/** Bounded, not growing with the library: a small part of the 280 MB of bodies it pulls. */
const HEAP_TARGET_MB = 150;
const LIBRARY_SEED = 16;
const ACCOUNT = { email: 'new-device@bench.test', password: 'benchmark password', username: 'new device' };
const APP_DIR = join(repoRoot, 'app', 'dist');

/**
 * In the page from its first script: the submit's time, the time the dashboard's total first says every
 * article, long tasks, and the heap sampled every 50 ms. The budget is "Everything".
 */
const PROBES = `
  localStorage.setItem('lectern.offlineBudget', JSON.stringify({ kind: 'everything' }));
  performance.setResourceTimingBufferSize(100000);
  window.__probe = { submitAt: null, cardsAt: null, longTasks: [], heapPeak: 0, heapPeakAt: 0, heapSamples: 0, heapEachSecond: [] };
  document.addEventListener('submit', () => { window.__probe.submitAt ??= performance.now(); }, true);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const total = ${JSON.stringify(ARTICLES.toLocaleString('en-US'))};
  new MutationObserver((_, observer) => {
    const value = document.querySelector('.stat-card--total .stat-card__value');
    if (value && value.textContent.trim() === total) {
      window.__probe.cardsAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
  setInterval(() => {
    const used = performance.memory?.usedJSHeapSize ?? 0;
    window.__probe.heapSamples += 1;
    if (window.__probe.heapSamples % 20 === 0) window.__probe.heapEachSecond.push(Math.round(used / 1048576));
    if (used > window.__probe.heapPeak) { window.__probe.heapPeak = used; window.__probe.heapPeakAt = performance.now(); }
  }, 50);
`;

interface Probe {
  submitAt: number | null;
  cardsAt: number | null;
  longTasks: { start: number; duration: number }[];
  heapPeak: number;
  heapPeakAt: number;
  heapEachSecond: number[];
  heapSamples: number;
}

/**
 * Articles (rows and staged cards) and bodies in the device's IndexedDB, counted in the page, with the page's
 * clock. Without `staged`, the staged cards are not read (staged 0). Each count walks its store, so the
 * bench counts once after each of the download's passes and while the move ends, never on a short poll.
 */
function counts(
  staged = true,
): Promise<{ articles: number; rows: number; staged: number; bodies: number; at: number }> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('lectern');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('card_page_ids')) {
        db.close();
        resolve({ articles: 0, rows: 0, staged: 0, bodies: 0, at: performance.now() });
        return;
      }
      const tx = db.transaction(['articles', 'bodies', 'card_page_ids']);
      const articles = tx.objectStore('articles').index('rev').count();
      // Cards still staged (a page per row, moved into rows once the bodies are in): the ids of each
      // page, a row per page.
      const pageIds = staged ? tx.objectStore('card_page_ids').getAll() : null;
      // One entry per body in the packs' id index (app/src/data/db/bodies.ts).
      const bodies = tx.objectStore('bodies').index('ids').count();
      tx.oncomplete = () => {
        let stagedCards = 0;
        for (const row of (pageIds?.result ?? []) as { ids: string[] }[]) stagedCards += row.ids.length;
        resolve({
          // While a page is being moved its moved cards are rows and still staged: counted twice here.
          articles: articles.result + stagedCards,
          rows: articles.result,
          staged: stagedCards,
          bodies: bodies.result,
          at: performance.now(),
        });
        db.close();
      };
    };
  });
}

/**
 * Reloads the page and waits for it to read the stored search index back: how long that took (its marks)
 * and the longest task meanwhile.
 */
async function indexReadBack(page: BarePage): Promise<{ ms: number; longest: number } | null> {
  await page.reload();
  return await polled(page, 60_000, 200, () =>
    page.evaluate(() => {
      const marks = performance.getEntriesByType('mark');
      const start = marks.find((mark) => mark.name === 'lectern:index-read:start');
      const end = marks.find((mark) => mark.name === 'lectern:index-read:end');
      if (!start || !end) return null;
      const { longTasks } = (window as unknown as { __probe: Probe }).__probe;
      const during = longTasks.filter(
        (task) => task.start + task.duration >= start.startTime && task.start <= end.startTime,
      );
      return {
        ms: end.startTime - start.startTime,
        longest: Math.max(0, ...during.map((task) => task.duration)),
      };
    }),
  );
}

/** `read`'s first answer that is not null, asked every `everyMs`; null once `timeoutMs` went by. */
async function polled<T>(
  page: BarePage,
  timeoutMs: number,
  everyMs: number,
  read: () => Promise<T | null>,
): Promise<T | null> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const answer = await read();
    if (answer !== null) return answer;
    await page.waitForTimeout(everyMs);
  }
  return null;
}

/**
 * The first list's timeline, in seconds after the submit: the sign-in's and the feed's requests (when each
 * was sent and answered, the server's time), then each page of cards stored (in hand + its transaction).
 */
async function printFirstList(page: BarePage, submitAt: number): Promise<void> {
  const at = (ms: number) => ((ms - submitAt) / 1000).toFixed(2);
  const requests = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => entry.name.includes('/api/auth/login') || entry.name.includes('/api/sync/changes'))
      .map((entry) => ({
        path: new URL(entry.name).pathname + new URL(entry.name).search.slice(0, 24),
        start: entry.startTime,
        waited: entry.responseStart - entry.requestStart,
        end: entry.responseEnd,
        bytes: entry.encodedBodySize,
      })),
  );
  for (const entry of requests)
    console.log(
      `      ${entry.path}: ${at(entry.start)} s → ${at(entry.end)} s (server ${entry.waited.toFixed(0)} ms, ${(entry.bytes / 1e6).toFixed(2)} MB)`,
    );
  const marks = await page.evaluate(() =>
    performance
      .getEntriesByType('mark')
      .filter((mark) => mark.name.startsWith('lectern:page:'))
      .map((mark) => ({ name: mark.name, at: mark.startTime })),
  );
  const starts = marks.filter((mark) => mark.name.endsWith(':start'));
  const ends = marks.filter((mark) => mark.name.endsWith(':end'));
  console.log(
    `      pages stored (s after submit +ms): ${starts
      .map((mark, i) => `${at(mark.at)}+${((ends[i]?.at ?? NaN) - mark.at).toFixed(0)}`)
      .join(', ')}`,
  );
}

async function main() {
  console.log('Building the app...');
  // BENCH_PROFILE_DIR: a CPU profile of the page from the submit to every card listed (unminified build).
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const minify = profileDir ? ['--minify', 'false'] : [];
  const build = spawnSync(
    process.execPath,
    [join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', ...minify],
    { cwd: repoRoot, stdio: 'ignore' },
  );
  if (build.status !== 0) throw new Error('vite build failed');
  // NEW_DEVICE_DATA_DIR keeps the seeded library in that folder for the next run (seeding takes minutes).
  const keptDir = process.env.NEW_DEVICE_DATA_DIR;
  // NEW_DEVICE_CARDS_ONLY=1: stops once every card is listed (trying a change to the first list; no table).
  const cardsOnly = process.env.NEW_DEVICE_CARDS_ONLY === '1';
  const dataDir = keptDir ?? mkdtempSync(join(tmpdir(), 'lectern-new-device-bench-'));
  // Without Playwright: its DevTools network domain copies and decodes every answer (support/bare-chromium.ts).
  const browser = await launchBareChromium();
  try {
    if (!existsSync(join(dataDir, 'lectern.sqlite'))) {
      console.log(`Seeding ${ARTICLES.toLocaleString('en')} articles (the realistic library)...`);
      const seedStarted = performance.now();
      await seedDatabase(dataDir, async (db) => {
        const user = await registerUser(db, ACCOUNT);
        await growLibrary(db, benchLibrary(user.id, LIBRARY_SEED), ARTICLES, (saved) => {
          if (saved % 2_000 === 0) console.log(`  ${saved.toLocaleString('en')}`);
        });
      });
      console.log(`Seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    }
    const server = await startProcess('sync-server/src/main.ts', { DATA_DIR: dataDir, APP_DIR });
    try {
      // A fresh profile (the browser's own, started for this run): its own storage, IndexedDB and service
      // worker.
      const page = await browser.newPage({
        baseURL: server.url,
        viewport: { width: 1440, height: 900 },
        initScript: PROBES,
        // IndexedDB on disk, as a reader's browser keeps it: Chromium's on-disk store reads every record a walk
        // of keys passes, which a profile in memory (Playwright's contexts, the bench until 3 December) hid.
        // NEW_DEVICE_MEMORY_PROFILE=1: in memory, to compare with the figures measured so.
        storage: process.env.NEW_DEVICE_MEMORY_PROFILE === '1' ? 'memory' : 'disk',
      });
      if (process.env.BENCH_CONSOLE) await page.printConsole();
      await page.goto('/login');
      await page.fill('Email', ACCOUNT.email);
      await page.fill('Password', ACCOUNT.password);
      // Settled before the submit: what follows is the sign-in and the sync.
      await page.waitForTimeout(1000);
      let profiling = Boolean(profileDir);
      if (profiling) {
        await page.send('Profiler.enable');
        await page.send('Profiler.setSamplingInterval', { interval: 200 });
        await page.send('Profiler.start');
      }
      // BENCH_TRACE_DIR: a Chrome trace (scripts, layout, paint, IndexedDB's tasks) from the submit to every
      // card listed: open it in Chrome's Performance panel.
      const traceDir = process.env.BENCH_TRACE_DIR;
      if (traceDir)
        await browser.startTracing(join(traceDir, 'new-device-cards.json'), [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'v8.execute',
          'blink.user_timing',
        ]);
      let tracing = Boolean(traceDir);
      await page.clickButton('Sign In', 'form');
      const wallStart = performance.now();
      // The heaps of the page and of its workers (the bodies are read in one), sampled together every 50 ms
      // until the sync's end: the figure is their sum's peak, so work moved into a worker still counts.
      const heaps = { samples: 0, peak: 0, peakAt: 0, pagePeak: 0, workersPeak: 0, sampling: true };
      const heapSampling = (async () => {
        while (heaps.sampling) {
          const { page: onPage, workers } = await page.heapsInUse();
          heaps.samples += 1;
          heaps.pagePeak = Math.max(heaps.pagePeak, onPage);
          heaps.workersPeak = Math.max(heaps.workersPeak, workers);
          if (onPage + workers > heaps.peak) {
            heaps.peak = onPage + workers;
            heaps.peakAt = performance.now() - wallStart;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      let last = { articles: 0, rows: 0, staged: 0, bodies: 0, at: 0 };
      let bodiesProfileFrom: number | null = null;
      let cardsProfiled = false;
      /** When the bench saw every card listed (its clock). */
      let listedAt: number | null = null;
      /** The download's passes seen ending so far: the bodies are counted once after each. */
      let passesCounted = 0;
      for (;;) {
        // Watched through the page's marks, not by counting the bodies in IndexedDB every 200 ms: a count
        // walks the whole store, up to half a second of IndexedDB's thread each in a profile kept on disk.
        const { listed, passesEnded } = await page.evaluate(() => ({
          listed: (window as unknown as { __probe: Probe }).__probe.cardsAt !== null,
          passesEnded: performance.getEntriesByName('lectern:bodies:end').map((mark) => mark.startTime),
        }));
        if (listed) listedAt ??= performance.now();
        if (tracing && listed) {
          await browser.stopTracing();
          tracing = false;
        }
        if (cardsOnly && listed) {
          const probe = await page.evaluate(() => (window as unknown as { __probe: Probe }).__probe);
          console.log(
            `every card listed ${((probe.cardsAt! - probe.submitAt!) / 1000).toFixed(2)} s after the submit`,
          );
          // Where the time went: the sign-in, each page asked for, each page stored.
          await printFirstList(page, probe.submitAt!);
          if (profiling && profileDir) {
            const { profile } = await page.send('Profiler.stop');
            writeFileSync(join(profileDir, 'new-device-cards.cpuprofile'), JSON.stringify(profile));
          }
          return;
        }
        if (profiling && profileDir && listed && !cardsProfiled) {
          const { profile } = await page.send('Profiler.stop');
          writeFileSync(join(profileDir, 'new-device-cards.cpuprofile'), JSON.stringify(profile));
          cardsProfiled = true;
          // Then the first seconds after the cards, until the background download is under way.
          await page.send('Profiler.start');
        }
        // Then ten seconds of the bodies coming in.
        if (
          profiling &&
          profileDir &&
          cardsProfiled &&
          bodiesProfileFrom === null &&
          performance.now() - listedAt! > 5_000
        ) {
          const { profile } = await page.send('Profiler.stop');
          writeFileSync(join(profileDir, 'new-device-move.cpuprofile'), JSON.stringify(profile));
          await page.send('Profiler.start');
          bodiesProfileFrom = performance.now();
        }
        if (
          profiling &&
          profileDir &&
          bodiesProfileFrom !== null &&
          performance.now() - bodiesProfileFrom > 10_000
        ) {
          const { profile } = await page.send('Profiler.stop');
          writeFileSync(join(profileDir, 'new-device-bodies.cpuprofile'), JSON.stringify(profile));
          profiling = false;
        }
        if (passesEnded.length > passesCounted) {
          passesCounted = passesEnded.length;
          last = await page.evaluate(counts, false);
          // Every body in at the end of that pass: its mark is the time.
          if (last.bodies >= ARTICLES) {
            last = { ...last, at: passesEnded[passesEnded.length - 1]! };
            break;
          }
        }
        if (performance.now() - wallStart > 300_000)
          throw new Error(
            `only ${(await page.evaluate(counts, false)).bodies} bodies of ${ARTICLES} articles after 300 s`,
          );
        await page.waitForTimeout(200);
      }
      // Then the staged cards' move into rows to its end: the device must hold the library, each article once.
      let settled = await page.evaluate(counts, true);
      while (settled.staged > 0 && performance.now() - wallStart < 420_000) {
        await page.waitForTimeout(500);
        settled = await page.evaluate(counts, true);
      }
      // The sync's heap peak: read before the search index takes the bodies in (its own figures below).
      heaps.sampling = false;
      await heapSampling;
      const syncHeap = await page.evaluate(() => {
        const { heapPeak, heapPeakAt } = (window as unknown as { __probe: Probe }).__probe;
        return { heapPeak, heapPeakAt };
      });
      // Then the search index taking every body in, in idle moments after the download's pass: done once a
      // catch-up ended after the bodies' last and no other began for a second (it marks each one).
      const indexMarks = () =>
        page.evaluate(() =>
          performance
            .getEntriesByType('mark')
            .filter(
              (mark) =>
                mark.name.startsWith('lectern:index:') ||
                mark.name.startsWith('lectern:index-save:') ||
                mark.name === 'lectern:bodies:end',
            )
            .map((mark) => ({ name: mark.name, at: mark.startTime })),
        );
      let indexedAt: number | null = null;
      while (performance.now() - wallStart < 600_000) {
        const marks = await indexMarks();
        const lastBodies = Math.max(...marks.filter((m) => m.name === 'lectern:bodies:end').map((m) => m.at));
        const ends = marks.filter((m) => m.name === 'lectern:index:end' && m.at > lastBodies);
        const lastEnd = ends[ends.length - 1];
        const startedAfter =
          lastEnd && marks.some((m) => m.name === 'lectern:index:start' && m.at > lastEnd.at);
        const now = await page.evaluate(() => performance.now());
        if (lastEnd && !startedAfter && now - lastEnd.at > 1_000) {
          indexedAt = lastEnd.at;
          break;
        }
        await page.waitForTimeout(500);
      }
      // Then the index written out (in idle time, a moment after its last catch-up): the tasks of that write
      // are the reader's too, so they count with the indexing's.
      const indexedBy = indexedAt;
      const savedAt =
        indexedBy === null
          ? null
          : await polled(page, 660_000 - (performance.now() - wallStart), 500, async () => {
              const marks = await indexMarks();
              return marks.find((m) => m.name === 'lectern:index-save:end' && m.at > indexedBy)?.at ?? null;
            });
      if (process.env.BENCH_HEAP_AFTER) {
        // What the page still holds once the sync is done, after a full collection (not a figure).
        await page.send('HeapProfiler.collectGarbage');
        const used = await page.evaluate(
          () => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize,
        );
        console.log(`      heap held after the sync, collected: ${(used / 2 ** 20).toFixed(0)} MB`);
        const seconds = await page.evaluate(
          () => (window as unknown as { __probe: Probe }).__probe.heapEachSecond,
        );
        console.log(`      heap each second (MB): ${seconds.join(' ')}`);
      }
      const probe = await page.evaluate(() => (window as unknown as { __probe: Probe }).__probe);
      if (probe.submitAt === null || probe.cardsAt === null)
        throw new Error('the probes saw no submit or no cards');
      const cardsMs = probe.cardsAt - probe.submitAt;
      const bodiesMs = last.at - probe.submitAt;
      const during = probe.longTasks.filter((task) => task.start >= probe.submitAt! && task.start <= last.at);
      const longest = Math.max(0, ...during.map((task) => task.duration));
      const indexing = probe.longTasks.filter(
        (task) => task.start > last.at && task.start <= (savedAt ?? indexedAt ?? 0),
      );
      const longestIndexing = Math.max(0, ...indexing.map((task) => task.duration));
      /** The heap's samples of each second from the bodies' end on: the index's share shows. */
      const heapAfter = probe.heapEachSecond.slice(Math.floor((last.at - probe.submitAt) / 1000));
      const heapMb = syncHeap.heapPeak / (1024 * 1024);
      const resources = await page.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
          name: entry.name,
          bytes: entry.encodedBodySize,
          start: entry.startTime,
          waited: entry.responseStart - entry.requestStart,
          end: entry.responseEnd,
        })),
      );
      const feed = resources.filter((entry) => entry.name.includes('/api/sync/changes'));
      const bodies = resources.filter((entry) => entry.name.includes('/api/articles/bodies'));
      const at = (ms: number) => ((ms - probe.submitAt!) / 1000).toFixed(2);
      // The sign-in, the feed's requests and each page of it stored.
      await printFirstList(page, probe.submitAt);
      const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      console.log(
        `      bodies: server ${median(bodies.map((entry) => entry.waited)).toFixed(0)} ms a call (median), ` +
          `${median(bodies.slice(1).map((entry, i) => entry.start - bodies[i]!.start)).toFixed(0)} ms between calls`,
      );
      // The sync's phases as the app marks them (data/sync/sync-marks.ts).
      const marks = await page.evaluate(() =>
        performance
          .getEntriesByType('mark')
          .filter((mark) => mark.name.startsWith('lectern:'))
          .map((mark) => ({ name: mark.name.slice('lectern:'.length), at: mark.startTime })),
      );
      console.log(
        `      phases (s after submit): ${marks
          .filter((mark) => !mark.name.startsWith('page:') && !mark.name.startsWith('index:'))
          .map((mark) => `${mark.name} ${at(mark.at)}`)
          .join(', ')}`,
      );
      // The search index's catch-ups from the bodies' end on (start-end), each a run over what was written.
      const catchUps: string[] = [];
      let catchUpStart: number | null = null;
      for (const mark of marks) {
        if (mark.at < last.at) continue;
        if (mark.name === 'index:start') catchUpStart ??= mark.at;
        if (mark.name === 'index:end' && catchUpStart !== null) {
          catchUps.push(`${at(catchUpStart)}-${at(mark.at)}`);
          catchUpStart = null;
        }
      }
      console.log(
        `      search index's catch-ups from the bodies' end (s after submit): ${catchUps.join(', ')}`,
      );
      // Where the bodies' time goes: the gaps between calls, and how much of it the long ones take.
      const gaps = bodies
        .slice(1)
        .map((entry, i) => entry.start - bodies[i]!.start)
        .sort((a, b) => a - b);
      const gapAt = (share: number) => (gaps[Math.floor(share * (gaps.length - 1))] ?? 0).toFixed(0);
      const longGaps = gaps.filter((gap) => gap > 200);
      console.log(
        `      bodies: gaps between calls p10 ${gapAt(0.1)}, p50 ${gapAt(0.5)}, p90 ${gapAt(0.9)}, max ${gapAt(1)} ms; ` +
          `${longGaps.length} over 200 ms, ${(longGaps.reduce((sum, gap) => sum + gap, 0) / 1000).toFixed(1)} s in all; ` +
          `first call at ${at(bodies[0]?.start ?? 0)} s`,
      );
      const mb = (entries: { bytes: number }[]) => entries.reduce((sum, entry) => sum + entry.bytes, 0) / 1e6;

      console.log('');
      recordFigure({
        side: 'device',
        figure: 'new device: every card listed after sign-in',
        size: ARTICLES,
        value: `${(cardsMs / 1000).toFixed(2)} s`,
        target: `<= ${CARDS_TARGET_MS / 1000} s`,
        ok: cardsMs <= CARDS_TARGET_MS,
      });
      recordFigure({
        side: 'device',
        figure: 'new device: every body on the device',
        size: ARTICLES,
        value: `${(bodiesMs / 1000).toFixed(1)} s`,
        target: `<= ${BODIES_TARGET_MS / 1000} s`,
        ok: bodiesMs <= BODIES_TARGET_MS && settled.staged === 0 && settled.rows === ARTICLES,
      });
      recordFigure({
        side: 'device',
        figure: 'new device: longest task during the sync',
        size: ARTICLES,
        value: `${longest.toFixed(0)} ms`,
        target: `<= ${LONGEST_TASK_TARGET_MS} ms`,
        ok: longest <= LONGEST_TASK_TARGET_MS,
      });
      const heapsMb = heaps.peak / 2 ** 20;
      recordFigure({
        side: 'device',
        figure: 'new device: JS heap peak during the sync, the page and its workers',
        size: ARTICLES,
        value: `${heapsMb.toFixed(0)} MB at ${(heaps.peakAt / 1000).toFixed(1)} s`,
        target: `<= ${HEAP_TARGET_MB} MB`,
        ok: heaps.samples > 0 && heapsMb <= HEAP_TARGET_MB,
      });
      console.log(
        `      heap peaks during the sync: the page's own ${heapMb.toFixed(0)} MB at ` +
          `${((syncHeap.heapPeakAt - probe.submitAt) / 1000).toFixed(1)} s (performance.memory, ${probe.heapSamples} samples), ` +
          `${(heaps.pagePeak / 2 ** 20).toFixed(0)} MB (DevTools), the workers' ${(heaps.workersPeak / 2 ** 20).toFixed(0)} MB ` +
          `(${heaps.samples} samples of both)`,
      );
      recordFigure({
        side: 'device',
        figure: 'new device: search index holds every body, after they are in (info)',
        size: ARTICLES,
        value: indexedAt === null ? 'not within 600 s' : `${((indexedAt - last.at) / 1000).toFixed(1)} s`,
        target: 'none',
        ok: indexedAt !== null,
      });
      recordFigure({
        side: 'device',
        figure: 'new device: longest task while the search index takes the bodies in and is written out',
        size: ARTICLES,
        value: savedAt === null ? 'not written out' : `${longestIndexing.toFixed(0)} ms`,
        target: `<= ${LONGEST_TASK_TARGET_MS} ms`,
        ok: savedAt !== null && longestIndexing <= LONGEST_TASK_TARGET_MS,
      });
      console.log(
        `      search index: ${indexing.length} tasks over 50 ms while it took the bodies in and was written out ` +
          `(written out ${savedAt === null || indexedAt === null ? '-' : ((savedAt - indexedAt) / 1000).toFixed(1)} s after its last catch-up; ` +
          `longest ${indexing
            .sort((a, b) => b.duration - a.duration)
            .slice(0, 5)
            .map(
              (task) => `${task.duration.toFixed(0)}@${((task.start - probe.submitAt!) / 1000).toFixed(1)}`,
            )
            .join(', ')}); heap each second ` +
          `from the bodies' end (MB): ${heapAfter.join(' ')}`,
      );
      console.log(
        `      feed: ${feed.length} pages of cards, ${mb(feed).toFixed(1)} MB, the last at ${((Math.max(0, ...feed.map((entry) => entry.end)) - probe.submitAt) / 1000).toFixed(2)} s; ` +
          `bodies: ${bodies.length} calls, ${mb(bodies).toFixed(0)} MB; ` +
          `cards moved into rows by ${((settled.at - probe.submitAt) / 1000).toFixed(1)} s: ` +
          `${settled.rows.toLocaleString('en')} articles, ${settled.staged} still staged`,
      );
      console.log(
        `      long tasks over 50 ms during the sync: ${during.length}; over 100 ms: ${during.filter((task) => task.duration > 100).length}` +
          ` (ms at s after submit: ${
            during
              .filter((task) => task.duration > 80)
              .map(
                (task) => `${task.duration.toFixed(0)}@${((task.start - probe.submitAt!) / 1000).toFixed(1)}`,
              )
              .join(', ') || 'none'
          })`,
      );
      // A reload then reads the stored index back (the dashboard gets it ready): the reader's next visit.
      const readBack = savedAt === null ? null : await indexReadBack(page);
      recordFigure({
        side: 'device',
        figure: 'new device: search index read back after a reload (info)',
        size: ARTICLES,
        value: readBack ? `${readBack.ms.toFixed(0)} ms` : 'not read back',
        target: 'none',
        ok: readBack !== null,
      });
      recordFigure({
        side: 'device',
        figure: 'new device: longest task while the search index is read back',
        size: ARTICLES,
        value: readBack ? `${readBack.longest.toFixed(0)} ms` : 'not read back',
        target: `<= ${LONGEST_TASK_TARGET_MS} ms`,
        ok: readBack !== null && readBack.longest <= LONGEST_TASK_TARGET_MS,
      });
    } finally {
      await server.stop();
    }
  } finally {
    await browser.close();
    if (!keptDir) rmSync(dataDir, { recursive: true, force: true });
  }
  if (anyMissed()) process.exitCode = 1;
}

await main();
