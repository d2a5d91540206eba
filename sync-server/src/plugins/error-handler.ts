// Every error leaves the server as `{error: "text"}` with the status of DESIGN.md section 2.
import { FIELD_ERRORS, SERVER_ERRORS } from '@lectern/shared-schema';
import type { FastifyError, FastifyInstance } from 'fastify';
import {
  ExtractionBusyError,
  FetchFailedError,
  FetchRefusedError,
  ImageUnreadableError,
  OcrTimeoutError,
} from '../extraction/index';
import { HttpError } from '../services/errors';
import { FileStoreUnavailableError } from '../storage/index';

const fieldErrors: Partial<Record<string, string>> = FIELD_ERRORS;

/** Turns ajv's report into a sentence a person can act on. */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const field =
    first.instancePath.split('/').filter(Boolean)[0] ?? String(first.params?.missingProperty ?? '');
  // A highlight's text breaks spec section 5's rule only by its pattern; too long is another matter.
  const ruleBroken = field !== 'highlightedText' || first.keyword === 'pattern';
  const wanted = ruleBroken ? fieldErrors[field] : undefined;
  if (wanted && (error.validationContext === 'body' || error.validationContext === 'querystring')) {
    return wanted;
  }
  const where = field ? `${field} ` : '';
  return `Invalid ${error.validationContext ?? 'request'}: ${where}${first.message ?? 'is not valid'}`.trim();
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send({ error: error.message });
    }
    // Other users' pages kept every extraction worker busy: nothing is wrong with this one, try again soon.
    if (error instanceof ExtractionBusyError)
      return reply.code(429).header('retry-after', '30').send({ error: SERVER_ERRORS.serverBusy });
    if (error instanceof FetchRefusedError) return reply.code(400).send({ error: error.message });
    if (error instanceof FetchFailedError) return reply.code(404).send({ error: error.message });
    // 422, not 5xx: the outbox shows it with Retry instead of sending the same image again and again.
    if (error instanceof OcrTimeoutError)
      return reply.code(422).send({ error: SERVER_ERRORS.screenshotTimedOut });
    if (error instanceof ImageUnreadableError) {
      return reply.code(400).send({ error: 'The screenshot could not be read as an image' });
    }
    // S3 down or too slow: the file may well be there, so not 404; the device tries again later.
    if (error instanceof FileStoreUnavailableError) {
      request.log.error(error);
      return reply.code(503).header('retry-after', '30').send({ error: SERVER_ERRORS.serverBusy });
    }
    if (error.validation) return reply.code(400).send({ error: validationMessage(error) });
    if (error.statusCode === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.code(413).send({ error: SERVER_ERRORS.tooLarge });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode).send({ error: error.message });
    }
    request.log.error(error);
    return reply.code(500).send({ error: SERVER_ERRORS.internal });
  });
}
