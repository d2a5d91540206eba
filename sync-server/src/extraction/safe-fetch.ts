// Fetching a page someone asked to save without letting that request reach anything but the public web.
// node:http is used (not global fetch) because only it lets us vet the address each connection actually
// goes to: the lookup hook refuses private answers, so a name that resolves publicly once and privately
// the next time (DNS rebinding) is caught at connect time, and every redirect starts over from scratch.
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { isIP } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { isPublicAddress } from './address-policy';
import { decodeHtml } from './charset';
import { FETCH_FAILURES, FETCH_REFUSALS, FetchFailedError, FetchRefusedError } from './errors';

export interface SafeFetchOptions {
  /** Origins (e.g. `http://127.0.0.1:8123`) exempt from the private-address rule: tests and local fixtures. */
  allowedOrigins: string[];
  timeoutMs?: number;
  connectTimeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

export const DEFAULT_FETCH_LIMITS = {
  timeoutMs: 15_000,
  connectTimeoutMs: 5_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
} as const;

const HTML_MIME_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const REQUEST_HEADERS = {
  'user-agent': 'Mozilla/5.0 (compatible; Lectern/1.0; read-it-later)',
  accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
  'accept-encoding': 'gzip, deflate, br',
  'accept-language': 'en;q=0.9,*;q=0.5',
};

/** What an image request asks for; the answer is judged by its bytes, never by its headers. */
const IMAGE_REQUEST_HEADERS = {
  ...REQUEST_HEADERS,
  accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif,image/svg+xml;q=0.8,*/*;q=0.1',
};

type Limits = Required<Omit<SafeFetchOptions, 'allowedOrigins'>>;

/** What reading a fetched page found: a meta refresh to follow like a redirect, or the page's result. */
export type PageReader<T> = (html: string, url: string) => Promise<{ refresh: string } | { page: T }>;

/**
 * Fetches a page, following redirects and the meta refreshes `read` finds (each hop checked like the first
 * address), and answers what `read` made of the last page with the address it was read from.
 */
export async function fetchAndRead<T>(
  url: string,
  options: SafeFetchOptions,
  read: PageReader<T>,
): Promise<{ url: string; page: T }> {
  const limits: Limits = { ...DEFAULT_FETCH_LIMITS, ...definedOnly(options) };
  const allowedOrigins = new Set(options.allowedOrigins.flatMap((origin) => originOf(origin) ?? []));
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  let current = checkedAddress(url, allowedOrigins);
  for (let redirects = 0; ; redirects += 1) {
    const answer = await fetchOne(current, allowedOrigins, limits, deadline);
    // Reading runs outside the network error mapping: its failures say what they are.
    const reading = 'redirect' in answer ? answer : await read(answer.html, current.href);
    if ('page' in reading) return { url: current.href, page: reading.page };
    const target = 'redirect' in reading ? reading.redirect : reading.refresh;
    current = nextHop(target, current, redirects, limits, allowedOrigins);
  }
}

/**
 * Fetches a file (an article's image) with every rule a page fetch has: the same address checks on every
 * hop, the lookup and connect-time checks, the deadline over the whole exchange, and the byte cap counted
 * on the decoded body. Its content type is not checked: the caller sniffs the bytes.
 */
export async function fetchBytes(url: string, options: SafeFetchOptions): Promise<Buffer> {
  const limits: Limits = { ...DEFAULT_FETCH_LIMITS, ...definedOnly(options) };
  const allowedOrigins = new Set(options.allowedOrigins.flatMap((origin) => originOf(origin) ?? []));
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  let current = checkedAddress(url, allowedOrigins);
  for (let redirects = 0; ; redirects += 1) {
    const answer = await fetchOneFile(current, allowedOrigins, limits, deadline);
    if (!('redirect' in answer)) return answer.bytes;
    current = nextHop(answer.redirect, current, redirects, limits, allowedOrigins);
  }
}

async function fetchOneFile(
  url: URL,
  allowedOrigins: Set<string>,
  limits: Limits,
  deadline: AbortSignal,
): Promise<{ redirect: string } | { bytes: Buffer }> {
  try {
    const response = await openResponse(
      url,
      allowedOrigins.has(url.origin),
      limits,
      deadline,
      IMAGE_REQUEST_HEADERS,
    );
    const location = response.headers.location;
    if (REDIRECT_STATUSES.has(response.statusCode ?? 0) && location) {
      response.destroy();
      return { redirect: location };
    }
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 299) {
      response.destroy();
      throw new FetchFailedError(FETCH_FAILURES.upstreamStatus(status));
    }
    if (Number(response.headers['content-length'] ?? 0) > limits.maxBytes) {
      response.destroy();
      throw new FetchRefusedError(FETCH_REFUSALS.tooLarge(limits.maxBytes));
    }
    return { bytes: await readCapped(decompressed(response), limits.maxBytes, response) };
  } catch (error) {
    if (error instanceof FetchRefusedError || error instanceof FetchFailedError) throw error;
    if (deadline.aborted) throw new FetchFailedError(FETCH_FAILURES.timeout);
    throw new FetchFailedError(FETCH_FAILURES.unreachable(describeNetworkError(error)));
  }
}

/** One request: a redirect's target or the page's markup, network failures in the user's words. */
async function fetchOne(
  url: URL,
  allowedOrigins: Set<string>,
  limits: Limits,
  deadline: AbortSignal,
): Promise<{ redirect: string } | { html: string }> {
  try {
    const response = await openResponse(url, allowedOrigins.has(url.origin), limits, deadline);
    const location = response.headers.location;
    if (REDIRECT_STATUSES.has(response.statusCode ?? 0) && location) {
      response.destroy();
      return { redirect: location };
    }
    return { html: await readHtml(response, limits.maxBytes) };
  } catch (error) {
    if (error instanceof FetchRefusedError || error instanceof FetchFailedError) throw error;
    if (deadline.aborted) throw new FetchFailedError(FETCH_FAILURES.timeout);
    throw new FetchFailedError(FETCH_FAILURES.unreachable(describeNetworkError(error)));
  }
}

function nextHop(target: string, from: URL, redirects: number, limits: Limits, allowed: Set<string>): URL {
  if (redirects >= limits.maxRedirects) throw new FetchFailedError(FETCH_FAILURES.tooManyRedirects);
  let resolved: string;
  try {
    resolved = new URL(target, from).href;
  } catch {
    throw new FetchFailedError(FETCH_FAILURES.badRedirect);
  }
  return checkedAddress(resolved, allowed);
}

/** Everything about an address that can be judged before connecting. */
function checkedAddress(value: string, allowedOrigins: Set<string>): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new FetchRefusedError(FETCH_REFUSALS.invalidAddress);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchRefusedError(FETCH_REFUSALS.scheme);
  if (url.username || url.password) throw new FetchRefusedError(FETCH_REFUSALS.credentials);
  // The URL parser has already turned 2130706433, 0x7f000001, 0177.0.0.1 and 127.1 into 127.0.0.1.
  // Literal addresses never pass through the lookup hook, so they are judged here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !allowedOrigins.has(url.origin) && !isPublicAddress(host)) {
    throw new FetchRefusedError(FETCH_REFUSALS.privateAddress);
  }
  return url;
}

function openResponse(
  url: URL,
  allowPrivate: boolean,
  limits: Limits,
  deadline: AbortSignal,
  headers: Record<string, string> = REQUEST_HEADERS,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        headers,
        agent: false,
        signal: deadline,
        ...(allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      resolve,
    );
    request.on('error', reject);
    request.on('socket', (socket) => watchConnection(socket, request, allowPrivate, limits.connectTimeoutMs));
    request.end();
  });
}

/** Refuses a name if any of its addresses is not public: the connection could pick any of them. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const first = addresses[0];
    if (!first || addresses.some(({ address }) => !isPublicAddress(address))) {
      return callback(new FetchRefusedError(FETCH_REFUSALS.privateAddress), '', 0);
    }
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
};

/** Connect timeout, and a last check of the peer address once the socket is actually connected. */
function watchConnection(
  socket: Socket,
  request: http.ClientRequest,
  allowPrivate: boolean,
  timeoutMs: number,
) {
  const timer = setTimeout(() => request.destroy(new FetchFailedError(FETCH_FAILURES.timeout)), timeoutMs);
  socket.once('close', () => clearTimeout(timer));
  socket.once('connect', () => {
    clearTimeout(timer);
    if (!allowPrivate && !isPublicAddress(socket.remoteAddress ?? '')) {
      request.destroy(new FetchRefusedError(FETCH_REFUSALS.privateAddress));
    }
  });
}

async function readHtml(response: http.IncomingMessage, maxBytes: number): Promise<string> {
  const status = response.statusCode ?? 0;
  const contentType = response.headers['content-type'];
  const mimeType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (status < 200 || status > 299) {
    response.destroy();
    throw new FetchFailedError(FETCH_FAILURES.upstreamStatus(status));
  }
  if (mimeType && !HTML_MIME_TYPES.has(mimeType)) {
    response.destroy();
    throw new FetchRefusedError(FETCH_REFUSALS.notHtml(mimeType));
  }
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
    response.destroy();
    throw new FetchRefusedError(FETCH_REFUSALS.tooLarge(maxBytes));
  }
  const body = await readCapped(decompressed(response), maxBytes, response);
  return decodeHtml(body, contentType);
}

function decompressed(response: http.IncomingMessage): Readable {
  const encoding = response.headers['content-encoding']?.trim().toLowerCase() ?? 'identity';
  const noop = () => undefined;
  switch (encoding) {
    case 'identity':
    case '':
      return response;
    case 'gzip':
    case 'x-gzip':
      return pipeline(response, zlib.createGunzip(), noop);
    case 'deflate':
      return pipeline(response, zlib.createInflate(), noop);
    case 'br':
      return pipeline(response, zlib.createBrotliDecompress(), noop);
    default:
      response.destroy();
      throw new FetchFailedError(FETCH_FAILURES.unreachable(`unsupported content encoding ${encoding}`));
  }
}

/** Counts decoded bytes, so a small compressed body can't expand past the cap either. */
async function readCapped(body: Readable, maxBytes: number, response: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const bytes = chunk as Buffer; // a byte stream without setEncoding always yields Buffers
    total += bytes.length;
    if (total > maxBytes) {
      response.destroy();
      body.destroy();
      throw new FetchRefusedError(FETCH_REFUSALS.tooLarge(maxBytes));
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}

function originOf(value: string): string | null {
  try {
    return new URL(value.trim()).origin;
  } catch {
    return null;
  }
}

function definedOnly(options: SafeFetchOptions): Partial<Limits> {
  const { timeoutMs, connectTimeoutMs, maxBytes, maxRedirects } = options;
  const entries = Object.entries({ timeoutMs, connectTimeoutMs, maxBytes, maxRedirects });
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.message : String(error);
}
