// /api/imports: upload another app's export (multipart field `file`, optional `source`), then follow it.
/// <reference types="@fastify/multipart" />
import {
  ArticleResponse,
  IdParam,
  IMPORT_MAX_FILE_BYTES,
  isImportSource,
  SERVER_ERRORS,
} from '@lectern/shared-schema';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../services/errors';
import {
  getImport,
  listImports,
  retryArticleFetch,
  uploadImport,
  type ImportUpload,
} from '../services/imports';
import type { RouteOptions, TypedFastify } from './types';

async function readImportForm(request: FastifyRequest): Promise<ImportUpload> {
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
    const started = await uploadImport(ctx, request.userId, () => readImportForm(request));
    return reply.code(202).send({ import: started });
  });

  app.get('/imports', async (request) => ({ imports: await listImports(ctx.db, request.userId) }));

  app.get('/imports/:id', { schema: { params: IdParam } }, async (request) => ({
    import: await getImport(ctx.db, request.userId, request.params.id),
  }));

  app.post(
    '/articles/:id/fetch',
    { schema: { params: IdParam, response: { 200: ArticleResponse } } },
    async (request) => ({ article: await retryArticleFetch(ctx, request.userId, request.params.id) }),
  );
}
