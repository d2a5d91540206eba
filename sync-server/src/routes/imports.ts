// /api/imports: upload another app's export (multipart field `file`, optional `source`), then follow it.
/// <reference types="@fastify/multipart" />
import {
  ArticleResponse,
  IdParam,
  IMPORT_MAX_FILE_BYTES,
  isImportSource,
  SERVER_ERRORS,
  type ImportSource,
} from '@lectern/shared-schema';
import type { FastifyRequest } from 'fastify';
import { ImportBusyError, prepareImportOffThread } from '../imports/import-pool';
import { badRequest, HttpError, tooManyRequests } from '../services/errors';
import {
  getImport,
  importInProgress,
  listImports,
  retryArticleFetch,
  startImport,
} from '../services/imports';
import type { RouteOptions, TypedFastify } from './types';

async function readImportForm(request: FastifyRequest): Promise<{ bytes: Buffer; source?: ImportSource }> {
  let bytes: Buffer | undefined;
  let source: string | undefined;
  for await (const part of request.parts({
    limits: { fileSize: IMPORT_MAX_FILE_BYTES, files: 1, fields: 4, fieldSize: 100 },
  })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw badRequest(SERVER_ERRORS.importFileMissing);
      bytes = await part.toBuffer().catch((error: unknown) => {
        // @fastify/multipart stops reading at the cap and throws; say what the cap is.
        if (error instanceof Error && 'code' in error && error.code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new HttpError(413, SERVER_ERRORS.importTooLarge);
        }
        throw error;
      });
      if (part.file.truncated) throw new HttpError(413, SERVER_ERRORS.importTooLarge);
    } else {
      if (part.valueTruncated) throw badRequest(SERVER_ERRORS.importUnknownSource);
      if (part.fieldname === 'source' && typeof part.value === 'string' && part.value !== '')
        source = part.value;
    }
  }
  if (!bytes) throw badRequest(SERVER_ERRORS.importFileMissing);
  if (source !== undefined && !isImportSource(source)) throw badRequest(SERVER_ERRORS.importUnknownSource);
  return { bytes, source };
}

export async function importRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  app.post('/imports', async (request, reply) => {
    if (!request.isMultipart()) throw badRequest(SERVER_ERRORS.importFileMissing);
    // The slot is taken before the file is read: one file per reader in memory at a time, a bounded number
    // on the server, and the check below and the start of the import can't be raced by a second upload.
    const started = await ctx.limits.imports.run(request.userId, async () => {
      // One import written at a time per reader: a second file waits until the first is in.
      if (importInProgress(ctx.db, request.userId)) throw tooManyRequests(SERVER_ERRORS.importRunning, 30);
      const form = await readImportForm(request);
      let prepared;
      try {
        prepared = await prepareImportOffThread(form.bytes, form.source);
      } catch (error) {
        if (error instanceof ImportBusyError) throw tooManyRequests(SERVER_ERRORS.serverBusy, 10);
        throw error;
      }
      if (!prepared.ok) throw badRequest(prepared.error);
      return startImport(ctx.db, request.userId, prepared);
    });
    ctx.jobs.wake();
    return reply.code(202).send({ import: started });
  });

  app.get('/imports', async (request) => ({ imports: listImports(ctx.db, request.userId) }));

  app.get('/imports/:id', { schema: { params: IdParam } }, async (request) => ({
    import: getImport(ctx.db, request.userId, request.params.id),
  }));

  app.post(
    '/articles/:id/fetch',
    { schema: { params: IdParam, response: { 200: ArticleResponse } } },
    async (request) => {
      const article = retryArticleFetch(ctx.db, request.userId, request.params.id);
      ctx.jobs.wake();
      return { article };
    },
  );
}
