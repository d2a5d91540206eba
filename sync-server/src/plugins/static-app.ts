// Serves the built PWA next to the API; every non-API path falls back to index.html (client routing).
import fastifyStatic from '@fastify/static';
import { SERVER_ERRORS } from '@lectern/shared-schema';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Files whose names don't change between builds must be revalidated, or a new version never arrives. */
const REVALIDATE = new Set(['index.html', 'sw.js', 'sw-routes.js', 'registerSW.js', 'manifest.webmanifest']);

export async function registerStaticApp(app: FastifyInstance, appDir: string | null): Promise<void> {
  if (!appDir || !existsSync(join(appDir, 'index.html'))) {
    app.get('/', async (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send('Lectern API is running. Build the app with `npm run build` to serve it here.'),
    );
    // Fastify's own 404 logs the whole URL, query string included (see plugins/request-logging.ts).
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: SERVER_ERRORS.notFound }));
    return;
  }
  await app.register(fastifyStatic, {
    root: appDir,
    wildcard: true,
    index: ['index.html'],
    // The headers below decide caching; send's own default (max-age=0) would override them.
    cacheControl: false,
    setHeaders(res, path) {
      const name = path.split('/').at(-1) ?? '';
      if (REVALIDATE.has(name) || name.startsWith('workbox-')) res.setHeader('cache-control', 'no-cache');
      else if (path.includes('/assets/'))
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  app.setNotFoundHandler((request, reply) => {
    // The static wildcard route also sees unknown /api paths; those stay JSON 404s.
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.url.startsWith('/api/')) {
      return reply.code(404).send({ error: SERVER_ERRORS.notFound });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
