// Builds the Fastify server: plugins, the /api routes (public and signed-in) and the built PWA.
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { SERVER_ERRORS } from '@lectern/shared-schema';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from './config';
import { openDatabaseFromConfig } from './db/open';
import { setExtractionQueueWait } from './extraction/index';
import { authPlugin } from './plugins/auth';
import { registerErrorHandler } from './plugins/error-handler';
import { loggerOptions } from './plugins/request-logging';
import { idempotencyHooks, registerIdempotencyKey } from './plugins/idempotency';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerStaticApp } from './plugins/static-app';
import { articleBodyRoutes } from './routes/article-bodies';
import { articleRoutes } from './routes/articles';
import { authRoutes, publicAuthRoutes } from './routes/auth';
import { exportRoutes } from './routes/exports';
import { importRoutes } from './routes/imports';
import { registerImportJobs } from './jobs/import-jobs';
import { googleAuthRoutes } from './routes/google-auth';
import { healthRoutes } from './routes/health';
import { highlightRoutes } from './routes/highlights';
import { imageRoutes } from './routes/images';
import { listRoutes, publicListRoutes } from './routes/lists';
import { screenshotRoutes } from './routes/screenshots';
import { syncRoutes } from './routes/sync';
import { syncEventsRoutes, syncEventsTicketRoutes } from './routes/sync-events';
import { tagRoutes } from './routes/tags';
import type { FeedSignals } from './live/feed-signals';
import { openFeedSignals, runsJobs, servesRequests } from './nodes/node-wiring';
import { createServiceContext, type ServiceContext } from './services/context';
import { ARCHIVE_IMAGES_JOB, archiveArticleImages, queueImageBackfill } from './services/image-archive';
import {
  FILL_ARTICLE_CARDS_JOB,
  fillArticleCards,
  queueCardsBackfill,
} from './services/article-cards-backfill';
import { saveArticleJob, SAVE_ARTICLE_JOB } from './services/save-jobs';
import { readScreenshotJob, READ_SCREENSHOT_JOB } from './services/screenshots';
import { fillTagNameKeys } from './services/tags';

/** JSON bodies above this answer 413; screenshots have their own cap. */
export const JSON_BODY_LIMIT = 1024 * 1024;

/**
 * Fastify's option for TRUST_PROXY. A hop count becomes the function proxy-addr makes of one (its types
 * take no number): the nearest n addresses are proxies, the next one back is the client.
 */
function trustProxyOption(setting: Config['trustProxy']) {
  if (typeof setting !== 'number') return setting;
  return (_address: string, hop: number) => hop < setting;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Live updates' signal and streams, whose counts tests read (a stream that ends leaves nothing). */
    liveUpdates: ServiceContext['live'];
    /** Saves, uploads and imports in progress on this node, whose counts tests read. */
    workLimits: ServiceContext['limits'];
  }
}

export interface BuildOptions {
  /** Where log lines go instead of stdout, at info level (tests read them). */
  logStream?: NodeJS.WritableStream;
}

export async function buildServer(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // SQLite in DATA_DIR, or PostgreSQL with DATABASE_URL (a start error there stops the start, db/open.ts).
  // The database opens before the signal's own connection, so an unusable DATABASE_URL is explained to the
  // operator rather than thrown from the signal's connect; nothing commits before both are open.
  const opened: { signals?: FeedSignals; log?: FastifyBaseLogger } = {};
  const db = await openDatabaseFromConfig(config, {
    afterCommit: (userIds) => opened.signals?.publish(userIds),
  });
  // What the feed signal's connection and the job runner survive (a lost connection, a refused fetch) is
  // logged by the server, once its logger exists; neither stops.
  const logged = (what: string) => (error: unknown) => opened.log?.error({ err: error }, what);
  const feedSignals = await openFeedSignals(config, logged('feed signals'));
  opened.signals = feedSignals;
  await fillTagNameKeys(db);
  setExtractionQueueWait(config.extractionQueueWaitMs);
  const ctx = createServiceContext(db, config, feedSignals, logged('background jobs'));
  const { jobs } = ctx;
  const app = Fastify({
    logger: loggerOptions(
      config.logger,
      options.logStream ? 'info' : (process.env.LOG_LEVEL ?? 'info'),
      options.logStream,
    ),
    bodyLimit: JSON_BODY_LIMIT,
    // A request (a screenshot upload above all) must arrive whole within this time, or a client trickling
    // bytes would hold its upload slot for ever; Fastify's default 0 turns Node's own limit off. Node checks
    // the limit periodically, so a short one (tests) is checked more often, and only enforces it while the
    // headers' own limit is no longer than it.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, config.requestTimeoutMs / 4)),
    },
    trustProxy: trustProxyOption(config.trustProxy),
  }).withTypeProvider<TypeBoxTypeProvider>();
  opened.log = app.log;

  registerErrorHandler(app);
  registerSecurityHeaders(app);
  await app.register(authPlugin, { secret: config.jwtSecret, db });
  await app.register(multipart);
  registerIdempotencyKey(app);

  await app.register(
    async (api) => {
      api.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: SERVER_ERRORS.notFound }));
      await api.register(healthRoutes);
      // ROLE=worker: the health check only (nodes/node-wiring.ts).
      if (!servesRequests(config.role)) return;
      await api.register(publicAuthRoutes, { ctx });
      await api.register(publicListRoutes, { ctx });
      await api.register(googleAuthRoutes, { ctx });
      // Owner or public-list visitor: the route tells them apart itself.
      await api.register(imageRoutes, { ctx });
      // Takes the Authorization header or a ticket (EventSource sends no headers): it checks either itself.
      await api.register(syncEventsRoutes, { ctx });
      await api.register(async (signedIn) => {
        signedIn.addHook('onRequest', app.authenticate);
        // Only writes can carry an Idempotency-Key; reads skip both hooks altogether. No route sets hooks
        // of its own, so these are the route's only preHandler and onSend.
        const { guard, store } = idempotencyHooks(db, { ttlMs: config.idempotencyTtlMs });
        signedIn.addHook('onRoute', (route) => {
          const methods = Array.isArray(route.method) ? route.method : [route.method];
          if (methods.every((method) => method === 'GET' || method === 'HEAD')) return;
          route.preHandler = guard;
          route.onSend = store;
        });
        for (const routes of [
          authRoutes,
          exportRoutes,
          importRoutes,
          articleRoutes,
          screenshotRoutes,
          tagRoutes,
          listRoutes,
          highlightRoutes,
          syncRoutes,
          syncEventsTicketRoutes,
          articleBodyRoutes,
        ]) {
          await signedIn.register(routes, { ctx });
        }
      });
    },
    { prefix: '/api' },
  );

  if (servesRequests(config.role)) await registerStaticApp(app, config.appDir);

  registerImportJobs(jobs, ctx);
  jobs.handle(ARCHIVE_IMAGES_JOB, archiveArticleImages(ctx));
  jobs.handle(SAVE_ARTICLE_JOB, saveArticleJob(ctx), { waitedOn: true });
  jobs.handle(READ_SCREENSHOT_JOB, readScreenshotJob(ctx), { waitedOn: true });
  jobs.handle(FILL_ARTICLE_CARDS_JOB, fillArticleCards(ctx));
  // Articles saved before images were archived, and before cards were stored, are queued once (a marker
  // keeps each to one time).
  await queueImageBackfill(db);
  await queueCardsBackfill(db);
  // Jobs left from the last run (a restart in the middle of an import) go on once the server is ready.
  if (runsJobs(config.role)) app.addHook('onReady', async () => await jobs.start());
  // Streams never end by themselves: closing waits for open requests, so they are ended first.
  app.addHook('preClose', async () => ctx.live.streams.closeAll());
  app.decorate('liveUpdates', ctx.live);
  app.decorate('workLimits', ctx.limits);
  app.addHook('onClose', async () => {
    await ctx.live.signals.close();
    await jobs.stop();
    await ctx.extraction.ocr.close();
    await ctx.files.close();
    await db.close();
  });
  return app;
}
