// What each known error of the server's work answers (DESIGN.md section 2): its status, the text the reader
// sees and the headers. One home for the mapping: the error handler sends it, and a job a request waits for
// (jobs/awaited-jobs.ts) writes it as the job's outcome for the waiting request, on whichever node, to send.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import {
  ExtractionBusyError,
  FetchFailedError,
  FetchRefusedError,
  ImageUnreadableError,
  OcrTimeoutError,
} from '../extraction/index';
import { FileStoreUnavailableError } from '../storage/index';
import { HttpError } from './errors';

export interface Refusal {
  status: number;
  error: string;
  headers: Record<string, string>;
}

const RETRY_SOON = { 'retry-after': '30' };

/** The refusal `error` stands for, or null for an error that isn't one of ours (a fault: 500). */
export function refusalOf(error: unknown): Refusal | null {
  if (error instanceof HttpError)
    return { status: error.statusCode, error: error.message, headers: error.headers };
  // Other users' pages kept every extraction worker busy: nothing is wrong with this one, try again soon.
  if (error instanceof ExtractionBusyError)
    return { status: 429, error: SERVER_ERRORS.serverBusy, headers: RETRY_SOON };
  if (error instanceof FetchRefusedError) return { status: 400, error: error.message, headers: {} };
  if (error instanceof FetchFailedError) return { status: 404, error: error.message, headers: {} };
  // 422, not 5xx: the outbox shows it with Retry instead of sending the same image again and again.
  if (error instanceof OcrTimeoutError)
    return { status: 422, error: SERVER_ERRORS.screenshotTimedOut, headers: {} };
  if (error instanceof ImageUnreadableError)
    return { status: 400, error: 'The screenshot could not be read as an image', headers: {} };
  // S3 down or too slow: the file may well be there, so not 404; the device tries again later.
  if (error instanceof FileStoreUnavailableError)
    return { status: 503, error: SERVER_ERRORS.serverBusy, headers: RETRY_SOON };
  return null;
}
