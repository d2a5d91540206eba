// What an export file holds, read with the server's own reader (shared-schema/src/import-files): its format
// and its number of rows, or the server's words for why it can't be imported. Runs in the import preview's
// Web Worker (import-preview.worker.ts), never in the main bundle.
import type { ImportSource } from '@lectern/shared-schema';
import { ImportFormatError, importTotal, readImportFile } from '@lectern/shared-schema/import-files';

export type ImportPreview =
  /** What the server will find: "Pocket export, 8,412 items". */
  | { kind: 'ready'; source: ImportSource; total: number }
  /** No export, damaged, too large or not the format chosen: the server would refuse it the same way. */
  | { kind: 'refused'; error: string }
  /** The browser itself could not read it (out of memory, no worker): only the server can tell. */
  | { kind: 'unread' };

export interface ImportPreviewRequest {
  /** The File itself: a handle, not a copy of its bytes. */
  file: Blob;
  /** The format the reader chose, which the file must be. */
  source?: ImportSource;
}

export function readImportPreview(bytes: Uint8Array, forced?: ImportSource): ImportPreview {
  try {
    const parsed = readImportFile(bytes, forced);
    return { kind: 'ready', source: parsed.source, total: importTotal(parsed) };
  } catch (error) {
    if (error instanceof ImportFormatError) return { kind: 'refused', error: error.message };
    return { kind: 'unread' };
  }
}

/** The worker's answer to one file. */
export async function answerImportPreview({ file, source }: ImportPreviewRequest): Promise<ImportPreview> {
  let buffer: ArrayBuffer;
  try {
    buffer = await file.arrayBuffer();
  } catch {
    return { kind: 'unread' };
  }
  return readImportPreview(new Uint8Array(buffer), source);
}
