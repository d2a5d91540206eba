// Before Start, the import screen shows what the file holds ("Pocket export, 8,412 items") or why it can't
// be imported, read by the server's own reader off the main thread.
import { IMPORT_MAX_FILE_BYTES, SERVER_ERRORS, type ImportSource } from '@lectern/shared-schema';
import type { ImportPreview } from './read-import-preview';
import type { ImportPreviewRequest } from './import-preview.worker';

export type { ImportPreview };

function inWorker(request: ImportPreviewRequest, signal?: AbortSignal): Promise<ImportPreview> {
  return new Promise((resolve, reject) => {
    // One worker per file, ended once it has answered: its memory (the whole file, parsed) goes with it.
    const worker = new Worker(new URL('./import-preview.worker.ts', import.meta.url), { type: 'module' });
    const stop = () => {
      worker.terminate();
      reject(new DOMException('The file is no longer wanted', 'AbortError'));
    };
    signal?.addEventListener('abort', stop, { once: true });
    const finish = (preview: ImportPreview) => {
      signal?.removeEventListener('abort', stop);
      worker.terminate();
      resolve(preview);
    };
    worker.addEventListener('message', (event: MessageEvent<ImportPreview>) => finish(event.data));
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      finish({ kind: 'unread' });
    });
    worker.postMessage(request);
  });
}

/** Where there are no Web Workers (tests, very old browsers): the same reader, loaded on demand. */
async function inPage({ file, source }: ImportPreviewRequest): Promise<ImportPreview> {
  const [{ readImportPreview }, buffer] = await Promise.all([
    import('./read-import-preview'),
    file.arrayBuffer(),
  ]);
  return readImportPreview(new Uint8Array(buffer), source);
}

/**
 * The file's format and number of rows as the server will read them; `source` is the format the reader
 * chose, which the file must be. A file over the server's limit is refused unread, as the server would.
 * Rejects with an AbortError once `signal` aborts (another file chosen).
 */
export async function previewImportFile(
  file: Blob,
  source?: ImportSource,
  signal?: AbortSignal,
): Promise<ImportPreview> {
  if (file.size > IMPORT_MAX_FILE_BYTES) return { kind: 'refused', error: SERVER_ERRORS.importTooLarge };
  if (typeof Worker === 'undefined') return inPage({ file, source });
  return inWorker({ file, source }, signal);
}
