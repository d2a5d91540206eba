// A <meta http-equiv="refresh"> that sends the reader on at once is a redirect in all but name, so the
// safe fetch follows it (and checks its target) like an HTTP redirect. It is looked for on the parsed
// page, as a browser sees it: a refresh inside a comment (CNN's `<!--[if lte IE 9]>` one), a <noscript>
// or a <template> is not part of the page, and only an http(s) target is a page to go on to; a browser
// follows no refresh to javascript:, data:, mailto: or about:, so such a page is saved as it is.
import { attributeOf, type PageDocument } from './page-dom';

/** Longer refreshes are "reload this page every few minutes" on news sites, not a redirect. */
const MAX_REDIRECTING_REFRESH_SECONDS = 5;

/** Where a browser running scripts never sees a <meta> as an element of the page. */
const NOT_IN_PAGE =
  'noscript, template, noembed, noframes, iframe, xmp, textarea, title, script, style, svg, math';

/**
 * The absolute http(s) address the page's meta refresh redirects to, or null when it doesn't redirect.
 * As in browsers, the first refresh that can be read decides; `baseUrl` is the page's <base> or its address.
 */
export function metaRefreshTarget(document: PageDocument, baseUrl: string, pageUrl: string): URL | null {
  for (const meta of document.querySelectorAll('meta')) {
    if (attributeOf(meta, 'http-equiv')?.trim().toLowerCase() !== 'refresh') continue;
    const content = attributeOf(meta, 'content');
    if (content === null || meta.closest(NOT_IN_PAGE)) continue;
    const refresh = parseRefresh(content);
    if (!refresh) continue;
    if (refresh.url === null) return null; // a reload timer
    const target = tryUrl(refresh.url, baseUrl);
    if (!target) continue;
    const redirects =
      refresh.seconds <= MAX_REDIRECTING_REFRESH_SECONDS &&
      (target.protocol === 'http:' || target.protocol === 'https:') &&
      withoutHash(target) !== withoutHash(new URL(pageUrl));
    return redirects ? target : null;
  }
  return null;
}

interface Refresh {
  seconds: number;
  /** Null when the refresh reloads the page itself. */
  url: string | null;
}

/**
 * The content attribute read by the HTML standard's "shared declarative refresh steps": "5", "0; url=/a",
 * "0,URL='/a'", "3 /a". One pass over the text, no regular expression.
 */
export function parseRefresh(content: string): Refresh | null {
  let at = skipWhitespace(content, 0);
  const digitsStart = at;
  while (isDigit(content.charCodeAt(at))) at += 1;
  if (at === digitsStart && content[at] !== '.') return null;
  const seconds = at === digitsStart ? 0 : Number(content.slice(digitsStart, at));
  while (isDigit(content.charCodeAt(at)) || content[at] === '.') at += 1;
  if (at >= content.length) return { seconds, url: null };
  if (content[at] !== ';' && content[at] !== ',' && !isWhitespace(content.charCodeAt(at))) return null;
  at = skipWhitespace(content, at);
  if (content[at] === ';' || content[at] === ',') at = skipWhitespace(content, at + 1);
  if (at >= content.length) return { seconds, url: null };
  const urlStart = at;
  if (/^url/i.test(content.slice(at, at + 3))) {
    const afterName = skipWhitespace(content, at + 3);
    if (content[afterName] === '=') at = skipWhitespace(content, afterName + 1);
  }
  const quote = content[at] === '"' || content[at] === "'" ? content[at]! : null;
  if (at === urlStart && !quote) return { seconds, url: content.slice(urlStart) };
  const valueStart = quote ? at + 1 : at;
  const quoteEnd = quote ? content.indexOf(quote, valueStart) : -1;
  return { seconds, url: content.slice(valueStart, quoteEnd === -1 ? undefined : quoteEnd) };
}

function skipWhitespace(text: string, from: number): number {
  let at = from;
  while (isWhitespace(text.charCodeAt(at))) at += 1;
  return at;
}

/** ASCII whitespace as the HTML standard counts it: tab, line feed, form feed, carriage return, space. */
function isWhitespace(code: number): boolean {
  return code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d || code === 0x20;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function tryUrl(value: string, base: string): URL | null {
  try {
    return new URL(value.trim(), base);
  } catch {
    return null;
  }
}

function withoutHash(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.href;
}
