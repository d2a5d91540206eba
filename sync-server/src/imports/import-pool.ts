// Reading a 50 MB export takes seconds of CPU; it runs on a worker thread, never on the event loop.
import Piscina from 'piscina';
import type { ImportSource } from '@lectern/shared-schema';
import type { PreparedImport } from './prepare-import';

/**
 * Export files read at once on the server, each on its own thread: uploads take a slot before their body is
 * read (services/imports.ts, uploadImport), so a file never waits for a thread and its time limit is its own reading time.
 */
export const IMPORTS_IN_FLIGHT = 2;
const IMPORT_PARSE_TIMEOUT_MS = 120_000;
const WORKER_HEAP_MB = 1024;

let pool: Piscina | null = null;

function importPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./import-worker.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: IMPORTS_IN_FLIGHT,
    maxQueue: IMPORTS_IN_FLIGHT,
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  return pool;
}

export class ImportBusyError extends Error {}

export async function prepareImportOffThread(
  bytes: Uint8Array,
  source?: ImportSource,
): Promise<PreparedImport> {
  const workers = importPool();
  if (workers.queueSize >= IMPORTS_IN_FLIGHT) throw new ImportBusyError('Too many imports are being read');
  try {
    const prepared: PreparedImport = await workers.run(
      { bytes, source },
      { signal: AbortSignal.timeout(IMPORT_PARSE_TIMEOUT_MS) },
    );
    return prepared;
  } catch (error) {
    if (error instanceof Error && (error.name === 'AbortError' || 'code' in error)) {
      return { ok: false, error: 'This file took too long to read; split it into smaller files.' };
    }
    throw error;
  }
}
