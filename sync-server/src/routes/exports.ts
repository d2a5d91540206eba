// /api/auth/export/*: the library in formats other apps read, next to the spec's JSON export. Both stream.
import { bookmarksExportFileName, highlightsExportFileName } from '@lectern/shared-schema';
import { Readable } from 'node:stream';
import { bookmarksHtml } from '../services/exports/bookmarks-html';
import { highlightsMarkdownZip } from '../services/exports/highlights-markdown';
import type { RouteOptions, TypedFastify } from './types';

export async function exportRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  app.get('/auth/export/highlights', async (request, reply) =>
    reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${highlightsExportFileName(new Date())}"`)
      .header('cache-control', 'private, no-store')
      .send(highlightsMarkdownZip(ctx.db, request.userId, ctx.config.publicUrl)),
  );

  app.get('/auth/export/bookmarks', async (request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-disposition', `attachment; filename="${bookmarksExportFileName(new Date())}"`)
      .header('cache-control', 'private, no-store')
      .send(Readable.from(bookmarksHtml(ctx.db, request.userId))),
  );
}
