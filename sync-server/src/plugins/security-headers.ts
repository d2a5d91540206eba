// Security headers on every response, as helmet sets them, with a content policy that fits the PWA.
// helmet is run once at start-up and its headers replayed: running it per request re-parses the policy
// each time, which cost a measurable share of the API's throughput.
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The service worker's own fetches (runtime caching of article images from their sites) are governed by
 * the CSP its script was served with, under connect-src; pages keep connect-src 'self'.
 */
const SERVICE_WORKER_SCRIPT = /^\/(sw\.js|workbox-[\w-]+\.js)(\?|$)/;

export function securityHeaders(connectSrc: string[] = ["'self'"]): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  const middleware = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Saved articles show images from the sites they came from.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        connectSrc,
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
  });
  middleware({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * The bookmarklet's window (/save) is opened by the page being saved and talks to it by postMessage; with
 * Cross-Origin-Opener-Policy: same-origin the browser would cut that link, so this one page goes without.
 */
const OPENED_BY_PAGES = /^\/save(\?|$)/;

export function registerSecurityHeaders(app: FastifyInstance): void {
  const headers = securityHeaders();
  const workerHeaders = securityHeaders(["'self'", 'https:', 'http:']);
  const { 'cross-origin-opener-policy': _opener, ...saveWindowHeaders } = headers;
  app.addHook('onRequest', (request, reply, done) => {
    if (OPENED_BY_PAGES.test(request.url)) reply.headers(saveWindowHeaders);
    else reply.headers(SERVICE_WORKER_SCRIPT.test(request.url) ? workerHeaders : headers);
    done();
  });
}
