// The title a reader expects: the page's own headline, without the site's name. Metadata titles carry
// the site's name ("… - BBC News", "Mozilla - Wikipedia"), JSON-LD `headline` is sometimes a short
// description ("Wikimedia list article"), and an <h1> can be the site's logo. So the <h1> is taken when a
// title the page declares (og:title, <title>) agrees with it; otherwise og:title, then <title>, each
// cleaned of the site name as Readability does; structured data only when nothing else names the page.
// Every title is whitespace-collapsed and capped before it is split, so no pattern here can backtrack.

export interface TitleSources {
  /** og:title, twitter:title or dc.title. */
  metaTitle: string | null;
  documentTitle: string | null;
  /** Texts of the page's <h1> elements, in order. */
  headings: string[];
  jsonLdHeadline: string | null;
  jsonLdName: string | null;
  /** Names the site goes by: og:site_name, application-name, publisher, twitter:site. */
  siteNames: string[];
  pageUrl: string;
}

const MAX_TITLE_LENGTH = 500;
/** More parts than this is no title but a list; the rest is ignored. */
const MAX_PARTS = 20;
/** Separators between a title and the site's name or section, with spaces on both sides. */
const SEPARATOR = / (?:[|\-–—/»·•~]|::?) /;
/** Cutting an unknown side off never leaves fewer words than this (Readability's rule). */
const MIN_WORDS_AFTER_GUESS = 3;

export function articleTitle(sources: TitleSources): string | null {
  const siteNames = [...sources.siteNames, ...hostNames(sources.pageUrl)].map(squash).filter(Boolean);
  const metaTitle = tidy(sources.metaTitle);
  const documentTitle = tidy(sources.documentTitle);
  const declared = [metaTitle, documentTitle].filter((title): title is string => title !== null);
  for (const heading of sources.headings.slice(0, 10).map(tidyHeading)) {
    for (const title of heading ? declared : []) {
      const agreed = agreedTitle(heading!, title, siteNames);
      if (agreed) return agreed;
    }
  }
  for (const title of declared) {
    const cleaned = withoutSiteName(title, siteNames);
    if (cleaned) return cleaned;
  }
  const structured = tidy(sources.jsonLdHeadline) ?? tidy(sources.jsonLdName);
  if (structured) return withoutSiteName(structured, siteNames);
  const headings = sources.headings.map(tidyHeading).filter((heading): heading is string => heading !== null);
  return headings.length === 1 ? headings[0]! : null;
}

/**
 * The title as the page declares it (its punctuation intact: an <h1>'s spans lose the colon after a
 * kicker) when the heading says the same: the whole title, the title without the site's name, its
 * leading parts ("Quickstart — Requests 2.32 documentation"), or its trailing parts after the site's name.
 */
function agreedTitle(heading: string, title: string, siteNames: string[]): string | null {
  const wanted = squash(heading);
  if (!wanted) return null;
  if (squash(title) === wanted) return title;
  // A logo <h1> naming the site agrees with nothing but a title that is the site's name alone.
  if (isSiteName(heading, siteNames)) return null;
  const cleaned = withoutSiteName(title, siteNames);
  if (squash(cleaned) === wanted) return cleaned;
  const parts = title.split(SEPARATOR).slice(0, MAX_PARTS);
  let leading = '';
  for (let cut = 1; cut < parts.length; cut += 1) {
    leading += squash(parts[cut - 1]!);
    if (leading === wanted) return rejoin(title, parts.slice(0, cut));
  }
  // "Site | Headline": the parts before the heading must name the site, or a logo <h1> would pass.
  let trailing = '';
  for (let cut = parts.length - 1; cut > 0; cut -= 1) {
    trailing = squash(parts[cut]!) + trailing;
    if (trailing === wanted && parts.slice(0, cut).every((part) => isSiteName(part, siteNames)))
      return rejoin(title, parts.slice(cut));
  }
  return null;
}

/**
 * The title without the site's name: leading or trailing parts naming the site go (with a section between
 * title and site name, as in "Headline | Politics | The Guardian"). When no part names the site, a short
 * last part is taken for it only if the rest still has MIN_WORDS_AFTER_GUESS words.
 */
export function withoutSiteName(title: string, siteNames: string[]): string {
  // "Kernel news [LWN.net]", "Headline (Example Times)"
  const bracket = /^(.+?) ?[[(]([^[\]()]+)[\])]$/.exec(title.slice(0, MAX_TITLE_LENGTH));
  if (bracket && isSiteName(bracket[2]!, siteNames)) return bracket[1]!;
  const parts = title.split(SEPARATOR).slice(0, MAX_PARTS);
  // "Kartenwerk: Radwege in Ihrer Nähe": a colon joins parts of one title, so only spaced separators split.
  if (parts.length === 1) return title;
  let start = 0;
  let end = parts.length;
  while (end - start > 1 && isSiteName(parts[end - 1]!, siteNames)) {
    end -= 1;
    // "Title | Section | Site": a short part just before the site's name is its section.
    if (end - start > 1 && wordCount(parts[end - 1]!) <= 2 && wordCount(parts[start]!) >= 2) end -= 1;
  }
  while (end - start > 1 && isSiteName(parts[start]!, siteNames)) start += 1;
  if (start > 0 || end < parts.length) return rejoin(title, parts.slice(start, end));
  // Nothing names the site: like Readability, the last part is the site's if it is the shorter side.
  const rest = rejoin(title, parts.slice(0, -1));
  const last = parts[parts.length - 1]!;
  return wordCount(last) < wordCount(rest) && wordCount(rest) >= MIN_WORDS_AFTER_GUESS ? rest : title;
}

/** The parts as they stood in the original title, separators included. */
function rejoin(title: string, parts: string[]): string {
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  const start = title.indexOf(first);
  const end = title.lastIndexOf(last) + last.length;
  return start >= 0 && end > start ? title.slice(start, end).trim() : parts.join(' ');
}

/** Words a site's name may start with that are no name on their own ("The" of "The Guardian"). */
const NAME_ARTICLES = new Set(['the', 'les', 'der', 'die', 'das', 'el', 'la', 'los', 'het', 'il']);

function isSiteName(part: string, siteNames: string[]): boolean {
  const squashed = squash(part);
  if (!squashed || NAME_ARTICLES.has(squashed)) return false;
  return siteNames.some(
    (site) =>
      squashed === site ||
      // "BBC News" for bbc.co.uk
      (site.length >= 3 && squashed.startsWith(site) && squashed.length <= site.length + 8) ||
      // "MDN" for "MDN Web Docs"
      (squashed.length >= 3 && site.startsWith(squashed)),
  );
}

/** Labels that name no site: subdomains and the common top-level and second-level domains. */
const GENERIC_LABELS = new Set(
  'www m en blog blogs com org net edu gov co ac io dev app uk us de fr jp info news'.split(' '),
);

/** "en.wikipedia.org" names "wikipedia", "www.bbc.co.uk" names "bbc", "jane.substack.com" "jane" too. */
function hostNames(pageUrl: string): string[] {
  let host: string;
  try {
    host = new URL(pageUrl).hostname;
  } catch {
    return [];
  }
  const labels = host.split('.').slice(0, -1);
  return labels.filter((label) => label.length >= 3 && !GENERIC_LABELS.has(label));
}

/** Lower-case letters and digits only: how names and titles are compared. */
function squash(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

function tidy(text: string | null | undefined): string | null {
  const collapsed = text
    ?.slice(0, MAX_TITLE_LENGTH * 4)
    .replace(/\s+/g, ' ')
    .trim();
  return collapsed ? collapsed.slice(0, MAX_TITLE_LENGTH) : null;
}

/** A heading without the permalink mark documentation generators put at its end ("Quickstart¶"). */
function tidyHeading(text: string): string | null {
  // Stripped after tidy() has capped the text, so the `$`-anchored pattern runs over 500 characters at most.
  return tidy(tidy(text)?.replace(/[ ¶#§🔗]+$/u, ''));
}

function wordCount(text: string): number {
  return text.split(' ').filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}
