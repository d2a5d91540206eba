// What every service function is handed, and how the server makes it: the database, the configuration, the
// extraction pipeline, and the limits. What nodes must share is in the database (sessions, sign-in and
// sign-up counts, Google sign-in codes, idempotency keys, jobs), so a request may reach any node; what this
// process keeps in memory guards only its own memory and CPU (work in progress, sign-in hashes under way,
// open event streams). One context per server, so every caller (a route, a batched endpoint, a job) is held
// to the same limits.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import {
  createOcrService,
  fetchArticle,
  type FetchedArticle,
  type OcrService,
  type SafeFetchOptions,
} from '../extraction/index';
import { IMPORTS_IN_FLIGHT } from '../imports/import-pool';
import { inProcessFeedSignals, type FeedSignals } from '../live/feed-signals';
import { LiveStreams } from '../live/live-streams';
import { createFileStore, type FileStore } from '../storage/index';
import { isSessionActive } from './sessions';
import type { JobRunner } from '../jobs/job-runner';
import { jobRunnerFor } from '../nodes/node-wiring';
import { newSignInLimits, type SignInLimits } from './sign-in';
import { SignInCodes } from './google-sign-in-codes';
import { WorkLimit } from './work-limits';

export interface Extraction {
  /** `owner`: the user the page is saved for (extraction workers take users in turn). */
  fetchArticle(url: string, options: SafeFetchOptions, owner?: string): Promise<FetchedArticle>;
  ocr: OcrService;
}

export interface ServiceContext {
  db: Db;
  config: Config;
  /** Screenshots and archived images: DATA_DIR, or S3 when S3_BUCKET is set (storage/). */
  files: FileStore;
  extraction: Extraction;
  /** Bounds on work in progress: saves (fetch and extract) and screenshot uploads (OCR). */
  limits: { saves: WorkLimit; uploads: WorkLimit; imports: WorkLimit };
  /** Sign-up and sign-in limits (services/sign-in.ts), counted in the database. */
  signIns: SignInLimits;
  /** Google sign-ins waiting for their tab to trade the one-time code, in the database (any node trades). */
  googleCodes: SignInCodes;
  /** Background work (saves by URL, OCR, image archiving, imports): SQLite's queue here, or pg-boss. */
  jobs: JobRunner;
  /** Live updates: the signal that a user's feed moved, and the event streams open on this node. */
  live: { signals: FeedSignals; streams: LiveStreams };
}

/**
 * The server's context over an open database; nothing runs until the caller starts `jobs`. `signals` is
 * the one the database publishes to after each commit (openDatabase's afterCommit).
 */
export function createServiceContext(
  db: Db,
  config: Config,
  signals: FeedSignals = inProcessFeedSignals(),
  /** Told of every failure the job runner survives (a refused fetch, a lost connection): the server logs it. */
  onJobRunnerError?: (error: unknown) => void,
): ServiceContext {
  return {
    live: {
      signals,
      streams: new LiveStreams(
        signals,
        {
          perUser: config.syncEventsPerUser,
          total: config.syncEventsMax,
          heartbeatMs: config.syncEventsHeartbeatMs,
        },
        (userId, sessionId) => isSessionActive(db, { sub: userId, sid: sessionId }),
      ),
    },
    db,
    config,
    files: createFileStore(config),
    jobs: jobRunnerFor(config, db, onJobRunnerError),
    extraction: { fetchArticle, ocr: createOcrService({ timeoutMs: config.ocrTimeoutMs }) },
    limits: {
      saves: new WorkLimit({
        perUser: config.savesPerUser,
        total: config.savesInFlight,
        userMessage: SERVER_ERRORS.tooManySaves,
        busyMessage: SERVER_ERRORS.serverBusy,
        retryAfterSeconds: 5,
      }),
      uploads: new WorkLimit({
        perUser: config.uploadsPerUser,
        total: config.uploadsInFlight,
        userMessage: SERVER_ERRORS.tooManyUploads,
        busyMessage: SERVER_ERRORS.serverBusy,
        retryAfterSeconds: 10,
      }),
      // An export file is held in memory (up to 50 MB) from its upload until it is read: one per user, and
      // as many on the server as the import worker threads, so none waits for a thread.
      imports: new WorkLimit({
        perUser: 1,
        total: IMPORTS_IN_FLIGHT,
        userMessage: SERVER_ERRORS.importReading,
        busyMessage: SERVER_ERRORS.serverBusy,
        retryAfterSeconds: 30,
      }),
    },
    signIns: newSignInLimits(db, config),
    googleCodes: new SignInCodes(db),
  };
}
