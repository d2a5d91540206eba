// happy-dom has no Web Workers. This stands in for the import preview's worker (import-preview.worker.ts)
// by giving the same answer, from the same reader, in the page: the picker's tests read real files with
// the server's reader. Chromium runs the real worker in e2e/import.e2e.ts.
import { answerImportPreview, type ImportPreviewRequest } from '../imports/read-import-preview';

export class InPageImportWorker extends EventTarget {
  private terminated = false;

  constructor(url: URL | string) {
    super();
    if (!String(url).includes('import-preview.worker')) throw new Error(`No stand-in for the worker ${url}`);
  }

  postMessage(request: ImportPreviewRequest): void {
    void answerImportPreview(request).then((data) => {
      if (!this.terminated) this.dispatchEvent(new MessageEvent('message', { data }));
    });
  }

  terminate(): void {
    this.terminated = true;
  }
}
