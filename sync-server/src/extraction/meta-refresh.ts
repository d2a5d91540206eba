// A <meta http-equiv="refresh"> that sends the reader on at once is a redirect in all but name, so the
// safe fetch follows it (and checks its target) like an HTTP redirect.

/** Longer refreshes are "reload this page every few minutes" on news sites, not a redirect. */
const MAX_REDIRECTING_REFRESH_SECONDS = 5;

/** The absolute address a page's meta refresh redirects to, or null when it doesn't redirect. */
export function metaRefreshTarget(html: string, pageUrl: URL): URL | null {
  // Browsers running scripts ignore a refresh inside <noscript>; sites use it for "enable JavaScript" pages.
  const visibleHtml = html.replace(/<noscript\b[\s\S]*?<\/noscript\s*>/gi, '');
  for (const tag of visibleHtml.match(/<meta\b[^>]*>/gi) ?? []) {
    if (!/http-equiv\s*=\s*["']?\s*refresh\b/i.test(tag)) continue;
    const content = attributeValue(tag, 'content');
    const match = /^\s*(\d+(?:\.\d*)?)\s*(?:[;,]\s*|\s+)(?:url\s*=\s*)?(['"]?)(.+?)\2\s*$/i.exec(
      content ?? '',
    );
    if (!match || Number(match[1]) > MAX_REDIRECTING_REFRESH_SECONDS) continue;
    const target = tryUrl(match[3]!.trim(), pageUrl);
    if (target && withoutHash(target) !== withoutHash(pageUrl)) return target;
  }
  return null;
}

function attributeValue(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return match ? decodeBasicEntities(match[1] ?? match[2] ?? match[3] ?? '') : undefined;
}

function decodeBasicEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function tryUrl(value: string, base: URL): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

function withoutHash(url: URL): string {
  return url.href.replace(/#.*$/, '');
}
