// Parsing a large page with linkedom and Readability blocks for most of a second, which would stall
// every other request, so extraction runs on worker threads. One core is left to the server itself.
//
// Pages wait for a worker in a queue of our own rather than piscina's, for two reasons. The time limit
// must count only the time a worker spends on the page: counted from the moment it was queued, a page
// behind a few slow ones was refused as "too complex" through no fault of its own. And the queue takes
// its owners in turn (one page of each user with pages waiting, round and round), so one account saving
// many heavy pages at once delays another user's save by at most about one page, not by all of them.
import { availableParallelism } from 'node:os';
import Piscina from 'piscina';
import type { ExtractedArticle, PageReading, RefreshReading } from './article-extraction';
import { archivableRaster, looksLikeSvg, type ArchivableImage } from './archivable-image';
import { ExtractionBusyError, FETCH_FAILURES, FetchFailedError } from './errors';

/** A page that takes a worker longer than this to take apart is hostile or broken; its worker is stopped. */
const EXTRACTION_TIMEOUT_MS = 30_000;
/** A page that waited this long for a worker is refused as "server busy" (429), never blamed on the page. */
let queueWaitMs = 30_000;

/** EXTRACTION_QUEUE_WAIT_MS: how long a page may wait for a worker (one setting for the process). */
export function setExtractionQueueWait(ms: number): void {
  queueWaitMs = ms;
}
/** Pages waiting at most; more are refused at once as "server busy" rather than held in memory. */
const MAX_WAITING = 256;
/** Caps the heap a single hostile page can make a worker use. */
const WORKER_HEAP_MB = 512;
const THREADS = Math.max(1, availableParallelism() - 1);

let pool: Piscina | null = null;

function extractionPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./extraction-worker.mjs', import.meta.url).href,
    minThreads: 1,
    maxThreads: THREADS,
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  return pool;
}

interface Waiting {
  start(): void;
}

/** Pages waiting for a worker, per owner; the Map's order is the owners' turn order. */
const waitingByOwner = new Map<string, Waiting[]>();
let waitingCount = 0;
let running = 0;

/** Resolves once a worker is free for this owner's page; ExtractionBusyError after too long a wait. */
function workerSlot(owner: string): Promise<void> {
  if (running < THREADS && waitingCount === 0) {
    running += 1;
    return Promise.resolve();
  }
  if (waitingCount >= MAX_WAITING) return Promise.reject(new ExtractionBusyError());
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      const queue = waitingByOwner.get(owner);
      const index = queue?.indexOf(waiting) ?? -1;
      if (queue && index >= 0) {
        queue.splice(index, 1);
        waitingCount -= 1;
        if (queue.length === 0) waitingByOwner.delete(owner);
      }
      reject(new ExtractionBusyError());
    }, queueWaitMs);
    const waiting: Waiting = {
      start: () => {
        clearTimeout(timer);
        resolve();
      },
    };
    const queue = waitingByOwner.get(owner);
    if (queue) queue.push(waiting);
    else waitingByOwner.set(owner, [waiting]);
    waitingCount += 1;
  });
}

/** A worker is free again: it goes to the next owner in turn, who then moves to the back of the line. */
function releaseWorkerSlot(): void {
  running -= 1;
  const next = waitingByOwner.entries().next();
  if (next.done) return;
  const [owner, queue] = next.value;
  const waiting = queue.shift()!; // queues in the map are never empty
  waitingByOwner.delete(owner);
  if (queue.length > 0) waitingByOwner.set(owner, queue);
  waitingCount -= 1;
  running += 1;
  waiting.start();
}

/** Who a page is extracted for, so that the queue can take users in turn; pages without one share a turn. */
const NO_OWNER = '';

export function extractArticleOffThread(html: string, url: string): Promise<ExtractedArticle> {
  return runTask<ExtractedArticle>('default', html, url, NO_OWNER);
}

/** The article of a fetched page, or where its meta refresh leads, from one parse off the main thread. */
export async function readFetchedPageOffThread(
  html: string,
  url: string,
  owner = NO_OWNER,
): Promise<Exclude<PageReading, { kind: 'tooComplex' }>> {
  return refusingTooComplex(await runTask<PageReading>('readFetchedPage', html, url, owner));
}

/**
 * The article of a page a browser sent with the save, through the same queue, workers and time limit as a
 * fetched page (so a hostile one is refused the same way) and in the owner's turn.
 */
export async function readGivenPageOffThread(
  html: string,
  url: string,
  owner: string,
): Promise<ExtractedArticle> {
  const reading = refusingTooComplex(
    await runTask<Exclude<PageReading, { kind: 'refresh' }>>('readGivenPage', html, url, owner),
  );
  return reading.article;
}

/** Where a fetched page's meta refresh leads, if anywhere; off the main thread, it parses the page. */
export async function readMetaRefreshOffThread(
  html: string,
  url: string,
): Promise<Exclude<RefreshReading, { kind: 'tooComplex' }>> {
  return refusingTooComplex(await runTask<RefreshReading>('readMetaRefresh', html, url, NO_OWNER));
}

function refusingTooComplex<T extends { kind: string }>(reading: T): Exclude<T, { kind: 'tooComplex' }> {
  if (reading.kind === 'tooComplex') throw new FetchFailedError(FETCH_FAILURES.unprocessable);
  return reading as Exclude<T, { kind: 'tooComplex' }>; // the only other kinds remain
}

async function runTask<T>(name: string, html: string, url: string, owner: string): Promise<T> {
  return runWorkerTask<T>(name, { html, url }, owner);
}

/** The images of an article body (article-images.ts), off the main thread and in the owner's turn. */
export function findArticleImagesOffThread(html: string, owner: string): Promise<string[]> {
  return runWorkerTask<string[]>('findArticleImages', { html }, owner);
}

/** The body pointing at the archived images (article-images.ts), off the main thread. */
export function rewriteArticleImagesOffThread(
  html: string,
  archived: Record<string, string>,
  owner: string,
): Promise<string> {
  return runWorkerTask<string>('rewriteArticleImages', { html, archived }, owner);
}

/**
 * What fetched bytes are (archivable-image.ts): sniffed here, and an SVG sanitised off the main thread,
 * since parsing a large one would stall other requests.
 */
export async function archivableImageOffThread(
  bytes: Buffer,
  owner: string,
): Promise<ArchivableImage | null> {
  const raster = archivableRaster(bytes);
  if (raster) return raster;
  if (!looksLikeSvg(bytes)) return null;
  const svg = await runWorkerTask<string | null>('sanitizeSvg', { svg: bytes.toString('utf8') }, owner);
  return svg ? { bytes: Buffer.from(svg, 'utf8'), ext: 'svg' } : null;
}

async function runWorkerTask<T>(name: string, task: object, owner: string): Promise<T> {
  await workerSlot(owner);
  try {
    // A worker is free, so piscina starts the task now: the time limit counts only its own work.
    const result: T = await extractionPool().run(task, {
      name,
      signal: AbortSignal.timeout(EXTRACTION_TIMEOUT_MS),
    });
    return result;
  } catch (error) {
    if (isWorkerOverrun(error)) throw new FetchFailedError(FETCH_FAILURES.unprocessable);
    throw error;
  } finally {
    releaseWorkerSlot();
  }
}

function isWorkerOverrun(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error ? error.code : undefined;
  return error.name === 'AbortError' || code === 'ERR_WORKER_OUT_OF_MEMORY';
}
