// The import preview's Web Worker: reading a 50 MB export takes seconds of CPU, which on the main thread
// would freeze the screen. Takes the File itself and answers with a few numbers.
import { answerImportPreview, type ImportPreview, type ImportPreviewRequest } from './read-import-preview';

// The app compiles with the DOM's types, where `self` is a Window; in a worker it is the worker's scope.
const scope = self as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<ImportPreviewRequest>) => void): void;
  postMessage(message: ImportPreview): void;
};

scope.addEventListener('message', (event) => {
  void answerImportPreview(event.data).then((preview) => scope.postMessage(preview));
});
