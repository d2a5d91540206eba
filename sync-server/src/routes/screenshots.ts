// POST /api/articles/screenshot (multipart: file `screenshot`, optional `tags` and `id`) and the image itself.
/// <reference types="@fastify/multipart" />
import {
  ArticleResponse,
  IdParam,
  parseTagInput,
  SERVER_ERRORS,
  UUID_PATTERN,
  withinTagLimits,
} from '@lectern/shared-schema';
import type { FastifyRequest } from 'fastify';
import { MAX_SCREENSHOT_BYTES } from '../extraction/index';
import { badRequest, HttpError } from '../services/errors';
import { readScreenshot, saveScreenshot, type ScreenshotUpload } from '../services/screenshots';
import type { RouteOptions, TypedFastify } from './types';

/**
 * The largest text field a valid form has: 50 tags of 100 characters (up to 3 bytes each in UTF-8) and
 * their commas. A longer field is cut by the parser and refused, so a huge one is never buffered whole.
 */
const MAX_FIELD_BYTES = 16 * 1024;

/** The tags field follows the JSON body's rule (shared-schema): at most 50 names of 100 characters. */
function tagsOf(field: string | undefined): string[] | undefined {
  if (field === undefined) return undefined;
  const tags = parseTagInput(field);
  if (tags && !withinTagLimits(tags)) throw badRequest(SERVER_ERRORS.tooManyTags);
  return tags;
}

/** Reads the form in any order of its parts; the image is capped while it streams in. */
async function readUpload(request: FastifyRequest): Promise<ScreenshotUpload> {
  let image: Buffer | undefined;
  const fields: Record<string, string> = {};
  for await (const part of request.parts({
    limits: { fileSize: MAX_SCREENSHOT_BYTES, files: 1, fields: 10, fieldSize: MAX_FIELD_BYTES },
  })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'screenshot') throw badRequest('Send the screenshot in the field "screenshot"');
      image = await part.toBuffer();
      if (part.file.truncated) throw new HttpError(413, 'The screenshot is larger than 15 MB');
    } else {
      if (part.valueTruncated) throw new HttpError(413, 'A form field is longer than 16 KB');
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  }
  if (!image) throw badRequest('Send the screenshot in the field "screenshot"');
  if (fields.id !== undefined && !UUID_PATTERN.test(fields.id)) throw badRequest('id must be a UUID');
  return { image, tags: tagsOf(fields.tags), id: fields.id };
}

export async function screenshotRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  app.post(
    '/articles/screenshot',
    { schema: { response: { 201: ArticleResponse } } },
    async (request, reply) => {
      if (!request.isMultipart())
        throw badRequest('Send the screenshot as multipart form data in the field "screenshot"');
      const article = await saveScreenshot(ctx, request.userId, () => readUpload(request));
      return reply.code(201).send({ article });
    },
  );

  app.get('/articles/:id/screenshot', { schema: { params: IdParam } }, async (request, reply) => {
    const { bytes, mimeType } = await readScreenshot(ctx, request.userId, request.params.id);
    // Owner-only: never kept in a shared cache, nor left behind in the browser's cache on a shared device.
    return reply.type(mimeType).header('cache-control', 'private, no-store').send(bytes);
  });
}
