// GET /api/images/{articleId}/{file}: an article's archived image, for its owner (Bearer token) or, when
// the article is in a public list, for anyone (the public list's cards show them).
import { Type } from 'typebox';
import { readArchivedImage } from '../services/archived-images';
import type { RouteOptions, TypedFastify } from './types';

const ImageParams = Type.Object({
  articleId: Type.String({ maxLength: 64 }),
  file: Type.String({ maxLength: 80 }),
});

/** An address names its bytes (their hash), so they never change: cached for a year without asking. */
const IMMUTABLE = 'max-age=31536000, immutable';
/** An SVG opened on its own is a document: nothing in it may run or load anything. */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export async function imageRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  app.get('/images/:articleId/:file', { schema: { params: ImageParams } }, async (request, reply) => {
    const { articleId, file } = request.params;
    const image = await readArchivedImage(ctx, await app.signedInUser(request), articleId, file);
    reply
      .type(image.mime)
      .header('x-content-type-options', 'nosniff')
      // An owner's image stays out of shared caches; a public list's may be kept by any.
      .header('cache-control', `${image.audience === 'owner' ? 'private' : 'public'}, ${IMMUTABLE}`);
    if (image.mime === 'image/svg+xml') reply.header('content-security-policy', SVG_POLICY);
    return reply.send(image.bytes);
  });
}
