// Every error leaves the server as `{error: "text"}` with the status of DESIGN.md section 2.
import { FIELD_ERRORS, SERVER_ERRORS } from '@lectern/shared-schema';
import type { FastifyError, FastifyInstance } from 'fastify';
import { refusalOf } from '../services/refusals';
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
    const refusal = refusalOf(error);
    if (refusal) {
      if (error instanceof FileStoreUnavailableError) request.log.error(error);
      return reply.code(refusal.status).headers(refusal.headers).send({ error: refusal.error });
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
