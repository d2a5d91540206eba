// The bodies' worker: reads each answer of POST /api/articles/bodies from the stream the page hands it
// (the page made the request, with its token and its handling of a refusal), keeps the bodies, and stores
// the ones the page says fit the budget into the same IndexedDB the page reads (Dexie tells the page's live
// reads of each write). The page sees ids and sizes only (body-answers.ts).
import { LecternDb } from '../db/lectern-db';
import { keepBodyAnswers, type BodyAnswers } from './body-answers';
import type { BodyAnswersReply, BodyAnswersRequest } from './body-answers-messages';

// The app compiles with the DOM's types, where `self` is a Window; in a worker it is the worker's scope.
const scope = self as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<BodyAnswersRequest>) => void): void;
  postMessage(message: BodyAnswersReply): void;
};

let answers: BodyAnswers | null = null;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

scope.addEventListener('message', ({ data: request }) => {
  if (request.op === 'open') {
    answers = keepBodyAnswers(new LecternDb(request.dbName));
    return;
  }
  if (!answers) throw new Error('The bodies worker was asked before it was told its database.');
  const { key } = request;
  if (request.op === 'read')
    answers.read(key, new Response(request.bytes)).then(
      (summary) => scope.postMessage({ op: 'read', key, ok: true, summary }),
      (error: unknown) => scope.postMessage({ op: 'read', key, ok: false, message: messageOf(error) }),
    );
  else
    answers.store(key, request.count).then(
      (stored) => scope.postMessage({ op: 'store', key, ok: true, stored }),
      (error: unknown) => scope.postMessage({ op: 'store', key, ok: false, message: messageOf(error) }),
    );
});
