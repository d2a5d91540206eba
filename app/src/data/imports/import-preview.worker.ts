// The import preview's Web Worker: reading a 50 MB export takes seconds of CPU, which on the main thread
// would freeze the screen. Takes the File itself (a handle, not a copy) and answers with a few numbers.
import type { ImportSource } from '@lectern/shared-schema';
import { readImportPreview, type ImportPreview } from './read-import-preview';

export interface ImportPreviewRequest {
  file: Blob;
  source?: ImportSource;
}

// The app compiles with the DOM's types, where `self` is a Window; in a worker it is the worker's scope.
const scope = self as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<ImportPreviewRequest>) => void): void;
  postMessage(message: ImportPreview): void;
};

scope.addEventListener('message', (event) => {
  const { file, source } = event.data;
  file.arrayBuffer().then(
    (buffer) => scope.postMessage(readImportPreview(new Uint8Array(buffer), source)),
    () => scope.postMessage({ kind: 'unread' }),
  );
});
