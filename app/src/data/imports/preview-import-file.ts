// Before Start, the import screen shows what the file holds ("Pocket export, 8,412 items") or why it can't
// be imported, read by the server's own reader off the main thread.
import { IMPORT_MAX_FILE_BYTES, SERVER_ERRORS, type ImportSource } from '@lectern/shared-schema';
import type { ImportPreview, ImportPreviewRequest } from './read-import-preview';

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
  // Every browser the app runs in has module workers; without one, the server alone reads the file.
  if (typeof Worker === 'undefined') return { kind: 'unread' };
  return inWorker({ file, source }, signal);
}
