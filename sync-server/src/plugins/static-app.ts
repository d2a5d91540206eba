// Serves the built PWA next to the API; every non-API path falls back to index.html (client routing).
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Files whose names don't change between builds must be revalidated, or a new version never arrives. */
const REVALIDATE = new Set(['index.html', 'sw.js', 'registerSW.js', 'manifest.webmanifest']);

export async function registerStaticApp(app: FastifyInstance, appDir: string | null): Promise<void> {
  if (!appDir || !existsSync(join(appDir, 'index.html'))) {
    app.get('/', async (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send('Lectern API is running. Build the app with `npm run build` to serve it here.'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: appDir,
    wildcard: true,
    index: ['index.html'],
    setHeaders(res, path) {
      const name = path.split('/').at(-1) ?? '';
      if (REVALIDATE.has(name) || name.startsWith('workbox-')) res.setHeader('cache-control', 'no-cache');
      else if (path.includes('/assets/'))
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return reply.code(404).send({ error: 'Not found' });
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
