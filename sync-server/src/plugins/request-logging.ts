// Request logs name the route, never its query string: queries carry search terms, saved addresses and
// one-time sign-in codes, which have no place in a log file.
import type { FastifyServerOptions, FastifyRequest } from 'fastify';

/** The path of a request URL without its query string (or fragment). */
export function pathOnly(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * A public list's share id is the list's password: whoever has it reads the list. Its paths (the API's and
 * the app page's) are logged with the id replaced.
 */
const SHARE_ID_PATHS = [/^(\/api\/lists\/public\/)[^/]+/, /^(\/list\/)[^/]+/];

/** The path of a request URL as a log line may show it: no query string, no share id. */
export function loggedPath(url: string): string {
  const path = pathOnly(url);
  for (const pattern of SHARE_ID_PATHS) if (pattern.test(path)) return path.replace(pattern, '$1…');
  return path;
}

/** What a log line records about a request: method, path, host and the client's address. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggedPath(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Fastify's logger settings: off, or at `level` to stdout (or `stream`, which tests read). */
export function loggerOptions(
  enabled: boolean,
  level: string,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  if (!enabled && !stream) return false;
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: { req: serializeRequest },
  };
}
