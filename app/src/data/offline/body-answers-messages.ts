// What the page and the bodies' worker (body-answers.worker.ts) say to each other.
import type { AnswerSummary } from './body-answers';

/** From the page: the database to store into first, then answers to read and to store, each by its key. */
export type BodyAnswersRequest =
  | { op: 'open'; dbName: string }
  | { op: 'read'; key: number; bytes: ArrayBuffer }
  | { op: 'store'; key: number; count: number };

/** From the worker: how a read or a store of `key` ended. */
export type BodyAnswersReply =
  | { op: 'read'; key: number; ok: true; summary: AnswerSummary }
  | { op: 'store'; key: number; ok: true; stored: number }
  | { op: 'read' | 'store'; key: number; ok: false; message: string };
