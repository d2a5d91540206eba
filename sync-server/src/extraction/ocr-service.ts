// Screenshot OCR with tesseract.js. The English model comes from the installed @tesseract.js-data/eng
// package and nothing is cached or downloaded. One worker is created on first use and kept: starting a
// worker costs a second and ~100 MB, so uploads take turns on it instead of each starting its own.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { ImageUnreadableError } from './errors';

/** OCR of one image ran past its time: the worker doing it was stopped, so it burns no more CPU. */
export class OcrTimeoutError extends Error {
  override name = 'OcrTimeoutError';
}

/** An image that takes longer than this to read is hostile or hopeless. */
export const OCR_TIMEOUT_MS = 60_000;

export interface OcrService {
  /** The text in an image (PNG, JPEG or WebP bytes). */
  recognize(image: Buffer): Promise<string>;
  /** Stops the worker; a later recognize starts a new one. */
  close(): Promise<void>;
}

/** The integer-quantized "best" LSTM model: nearly best accuracy at a fraction of the CPU. */
export function englishLanguagePath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

export function createOcrService({ timeoutMs = OCR_TIMEOUT_MS }: { timeoutMs?: number } = {}): OcrService {
  let worker: Promise<Worker> | null = null;
  // Each job waits for the one before it, so concurrent uploads never pile images into the worker.
  let queue: Promise<unknown> = Promise.resolve();

  const startedWorker = (): Promise<Worker> => {
    worker ??= createWorker('eng', OEM.LSTM_ONLY, {
      langPath: englishLanguagePath(),
      gzip: true,
      cacheMethod: 'none',
      // Without a handler tesseract.js rethrows a failed job as an uncaught exception, which would take
      // the whole server down over one unreadable upload; the job's own promise still rejects.
      errorHandler: () => undefined,
    }).catch((error: unknown) => {
      worker = null; // let the next upload try again
      throw error;
    });
    return worker;
  };

  return {
    recognize(image) {
      const job = queue.then(async () => {
        const starting = startedWorker();
        const current = await starting;
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => {
            // tesseract.js can't cancel a job: the worker itself is stopped, and the next upload starts a
            // fresh one.
            if (worker === starting) worker = null;
            void current.terminate().catch(() => undefined);
            reject(new OcrTimeoutError(`OCR took longer than ${timeoutMs} ms`));
          }, timeoutMs);
        });
        const reading = current.recognize(image).then(
          (result) => result.data.text,
          (reason: unknown) => {
            throw new ImageUnreadableError(`The screenshot could not be read: ${String(reason)}`, {
              cause: reason,
            });
          },
        );
        reading.catch(() => undefined); // a job stopped by the timeout rejects later; nobody waits for it
        try {
          return await Promise.race([reading, timedOut]);
        } finally {
          clearTimeout(timer);
        }
      });
      queue = job.catch(() => undefined);
      return job;
    },
    async close() {
      await queue;
      const current = worker;
      worker = null;
      if (current) await (await current.catch(() => null))?.terminate();
    },
  };
}
