// "The same address": the one rule that decides whether a URL is already in the library. The server keeps
// each article's normalised address next to it; imports and the browser extension use the same function.
//
// What counts as the same page:
// - scheme and host in any case, the default port written or not (http :80, https :443);
// - with or without the fragment (#section): it points into the same page; except a fragment that starts
//   with "#/" or "#!" (https://x/#/post/1, #!/post/2): single-page apps route on it, so it names the page;
// - with or without tracking parameters (utm_* and the click ids below): they name who shared the link,
//   not what it shows;
// - with or without a trailing slash on the path (/post/ and /post), and "?" with nothing after it.
// The remaining query parameters keep their order: some sites read them in order, and reordering could
// make two different pages look alike. http and https stay different (some sites serve different pages).

/** Query parameters that only track the click; compared in lower case. */
const TRACKING_PARAMETERS = new Set([
  'fbclid',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'mc_cid',
  'mc_eid',
  'igshid',
  'igsh',
  'ref_src',
  'ref_url',
  '_hsenc',
  '_hsmi',
  '__hssc',
  '__hstc',
  '__hsfp',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'wickedid',
  '_ga',
  '_gl',
]);

/** Prefixes of tracking parameter families (utm_source, utm_medium, … and Piwik/Matomo's). */
const TRACKING_PREFIXES = ['utm_', 'pk_', 'mtm_'];

export function isTrackingParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_PARAMETERS.has(lower) || TRACKING_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * The address two saves of the same page share. Anything that isn't an http(s) URL (a screenshot's
 * address, text that doesn't parse) is answered trimmed and otherwise as it is.
 */
export function normalizeArticleUrl(input: string): string {
  const text = input.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return text;
  // URL already lowercases the scheme and host and drops a default port.
  if (!isRouteFragment(url.hash)) url.hash = '';
  url.username = '';
  url.password = '';
  // Kept as raw "name=value" pieces, so the parameters that stay are written exactly as they came.
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((piece) => piece !== '' && !isTrackingParameter(decodeName(piece.split('=')[0] ?? '')));
  url.search = kept.length > 0 ? `?${kept.join('&')}` : '';
  let path = url.pathname;
  while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  url.pathname = path;
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.slice(0, -1);
  return url.href;
}

/** A hash-routed app's route ("#/post/1", "#!/post/1", "#!post"), not a place inside one page. */
function isRouteFragment(hash: string): boolean {
  return hash.startsWith('#/') || hash.startsWith('#!');
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
