// Parsing a large page with linkedom and Readability blocks for most of a second, which would stall
// every other request, so extraction runs on worker threads. One core is left to the server itself.
import { availableParallelism } from 'node:os';
import Piscina from 'piscina';
import type { ExtractedArticle, PageReading, RefreshReading } from './article-extraction';
import { FETCH_FAILURES, FetchFailedError } from './errors';

/** A page that takes longer than this to take apart is hostile or broken; its worker is stopped. */
const EXTRACTION_TIMEOUT_MS = 30_000;
/** Caps the heap a single hostile page can make a worker use. */
const WORKER_HEAP_MB = 512;

let pool: Piscina | null = null;

function extractionPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./extraction-worker.mjs', import.meta.url).href,
    minThreads: 1,
    maxThreads: Math.max(1, availableParallelism() - 1),
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  return pool;
}

export function extractArticleOffThread(html: string, url: string): Promise<ExtractedArticle> {
  return runTask<ExtractedArticle>('default', html, url);
}

/** The article of a fetched page, or where its meta refresh leads, from one parse off the main thread. */
export async function readFetchedPageOffThread(
  html: string,
  url: string,
): Promise<Exclude<PageReading, { kind: 'tooComplex' }>> {
  return refusingTooComplex(await runTask<PageReading>('readFetchedPage', html, url));
}

/** Where a fetched page's meta refresh leads, if anywhere; off the main thread, it parses the page. */
export async function readMetaRefreshOffThread(
  html: string,
  url: string,
): Promise<Exclude<RefreshReading, { kind: 'tooComplex' }>> {
  return refusingTooComplex(await runTask<RefreshReading>('readMetaRefresh', html, url));
}

function refusingTooComplex<T extends { kind: string }>(reading: T): Exclude<T, { kind: 'tooComplex' }> {
  if (reading.kind === 'tooComplex') throw new FetchFailedError(FETCH_FAILURES.unprocessable);
  return reading as Exclude<T, { kind: 'tooComplex' }>; // the only other kinds remain
}

async function runTask<T>(name: string, html: string, url: string): Promise<T> {
  try {
    const result: T = await extractionPool().run(
      { html, url },
      { name, signal: AbortSignal.timeout(EXTRACTION_TIMEOUT_MS) },
    );
    return result;
  } catch (error) {
    if (isWorkerOverrun(error)) throw new FetchFailedError(FETCH_FAILURES.unprocessable);
    throw error;
  }
}

function isWorkerOverrun(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error ? error.code : undefined;
  return error.name === 'AbortError' || code === 'ERR_WORKER_OUT_OF_MEMORY';
}
