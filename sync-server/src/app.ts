// Builds the Fastify server: plugins, the /api routes (public and signed-in) and the built PWA.
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { SERVER_ERRORS } from '@lectern/shared-schema';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import { openDatabase } from './db/connection';
import { createOcrService, fetchArticle } from './extraction/index';
import { authPlugin } from './plugins/auth';
import { registerErrorHandler } from './plugins/error-handler';
import { idempotencyGuard, idempotencyStore, registerIdempotencyKey } from './plugins/idempotency';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerStaticApp } from './plugins/static-app';
import { articleRoutes } from './routes/articles';
import { authRoutes, publicAuthRoutes } from './routes/auth';
import { googleAuthRoutes } from './routes/google-auth';
import { healthRoutes } from './routes/health';
import { highlightRoutes } from './routes/highlights';
import { listRoutes, publicListRoutes } from './routes/lists';
import { screenshotRoutes } from './routes/screenshots';
import { syncRoutes } from './routes/sync';
import { tagRoutes } from './routes/tags';
import type { ServiceContext } from './services/context';

/** JSON bodies above this answer 413; screenshots have their own cap. */
export const JSON_BODY_LIMIT = 1024 * 1024;

export async function buildServer(config: Config): Promise<FastifyInstance> {
  const db = openDatabase(config.databaseFile);
  const ctx: ServiceContext = {
    db,
    config,
    extraction: { fetchArticle, ocr: createOcrService() },
  };
  const app = Fastify({
    logger: config.logger ? { level: process.env.LOG_LEVEL ?? 'info' } : false,
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: process.env.TRUST_PROXY === 'true',
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerErrorHandler(app);
  registerSecurityHeaders(app);
  await app.register(authPlugin, { secret: config.jwtSecret, db });
  await app.register(multipart);
  registerIdempotencyKey(app);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(publicAuthRoutes, { ctx });
      await api.register(publicListRoutes, { ctx });
      await api.register(googleAuthRoutes, { ctx });
      await api.register(async (signedIn) => {
        signedIn.addHook('onRequest', app.authenticate);
        // Only writes can carry an Idempotency-Key; reads skip both hooks altogether. No route sets hooks
        // of its own, so these are the route's only preHandler and onSend.
        const guard = idempotencyGuard(db);
        const store = idempotencyStore(db);
        signedIn.addHook('onRoute', (route) => {
          const methods = Array.isArray(route.method) ? route.method : [route.method];
          if (methods.every((method) => method === 'GET' || method === 'HEAD')) return;
          route.preHandler = guard;
          route.onSend = store;
        });
        for (const routes of [
          authRoutes,
          articleRoutes,
          screenshotRoutes,
          tagRoutes,
          listRoutes,
          highlightRoutes,
          syncRoutes,
        ]) {
          await signedIn.register(routes, { ctx });
        }
      });
      api.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: SERVER_ERRORS.notFound }));
    },
    { prefix: '/api' },
  );

  await registerStaticApp(app, config.appDir);

  app.addHook('onClose', async () => {
    await ctx.extraction.ocr.close();
    db.close();
  });
  return app;
}
