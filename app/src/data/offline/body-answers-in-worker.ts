// BodyAnswers in a worker of their own (body-answers.worker.ts): the page hands over each answer's bytes
// unread and gets back its bodies' ids and sizes. One worker per download, ended with it: what it held
// goes with it.
import type { LecternDb } from '../db/lectern-db';
import { keepBodyAnswers, type AnswerSummary, type BodyAnswers } from './body-answers';
import type { BodyAnswersReply, BodyAnswersRequest } from './body-answers-messages';

/** False once a bodies worker failed to start or threw: the page reads the bodies itself from then on. */
let workersRun = true;

interface Waiting {
  resolve(value: AnswerSummary | number): void;
  reject(error: Error): void;
}

export function bodyAnswersInWorker(dbName: string): BodyAnswers {
  const worker = new Worker(new URL('./body-answers.worker.ts', import.meta.url), { type: 'module' });
  const waiting = new Map<string, Waiting>();
  let failure: Error | null = null;
  const failAll = (error: Error) => {
    failure = error;
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  };
  worker.addEventListener('message', ({ data: reply }: MessageEvent<BodyAnswersReply>) => {
    const name = `${reply.op}:${reply.key}`;
    const entry = waiting.get(name);
    waiting.delete(name);
    if (!entry) return;
    if (!reply.ok) entry.reject(new Error(reply.message));
    else entry.resolve(reply.op === 'read' ? reply.summary : reply.stored);
  });
  // The script failed to load or threw: every call waiting fails, and so does every later one; the next
  // download reads its bodies on the page's thread (canReadBodiesInWorker).
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    workersRun = false;
    failAll(new Error(`The bodies worker failed: ${event.message}`));
  });
  const post = (request: BodyAnswersRequest, transfer: Transferable[] = []) =>
    worker.postMessage(request, transfer);
  const ask = <T extends AnswerSummary | number>(op: 'read' | 'store', key: number, send: () => void) =>
    new Promise<T>((resolve, reject) => {
      if (failure) {
        reject(failure);
        return;
      }
      waiting.set(`${op}:${key}`, { resolve: resolve as Waiting['resolve'], reject });
      send();
    });
  post({ op: 'open', dbName });
  return {
    async read(key, response) {
      // The answer's bytes, handed over whole (moved, not copied): the page never decodes them. Handing
      // over the answer's stream instead cost the page a task for every chunk it passed on: a new device's
      // 10,000 bodies took 19.8 s that way, 11.8 s this way (one bench run each).
      const bytes = await response.arrayBuffer();
      return ask<AnswerSummary>('read', key, () => post({ op: 'read', key, bytes }, [bytes]));
    },
    store(key, count) {
      return ask<number>('store', key, () => post({ op: 'store', key, count }));
    },
    close() {
      worker.terminate();
      failAll(new Error('The bodies worker was closed.'));
    },
  };
}

/** Whether this browser runs module workers, and no bodies worker failed yet. */
function canReadBodiesInWorker(): boolean {
  return workersRun && typeof Worker !== 'undefined';
}

/** For a download into the browser's own IndexedDB: a worker where one can be handed the answers. */
export function browserBodyAnswers(db: LecternDb): BodyAnswers {
  return canReadBodiesInWorker() ? bodyAnswersInWorker(db.name) : keepBodyAnswers(db);
}
