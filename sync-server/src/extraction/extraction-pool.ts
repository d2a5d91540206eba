// Parsing a large page with linkedom and Readability blocks for most of a second, which would stall
// every other request, so extraction runs on worker threads. One core is left to the server itself.
import { availableParallelism } from 'node:os';
import Piscina from 'piscina';
import type { ExtractedArticle } from './article-extraction';
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

export async function extractArticleOffThread(html: string, url: string): Promise<ExtractedArticle> {
  try {
    const article: ExtractedArticle = await extractionPool().run(
      { html, url },
      { signal: AbortSignal.timeout(EXTRACTION_TIMEOUT_MS) },
    );
    return article;
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
