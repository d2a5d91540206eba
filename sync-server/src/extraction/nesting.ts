// Deeply nested markup ('<noscript>'.repeat(100_000), a few hundred KB) costs the square of its depth
// twice over: htmlparser2, under linkedom, keeps its open elements in an array it grows at the front, and
// Readability and the noscript unwrapping read whole subtrees once per element. Real pages nest a few dozen
// levels. So the depth is measured before parsing by one linear pass over the markup (a page nested past
// any real use is refused), and after parsing anything deeper than a browser would build is kept as text.
import type { PageDocument, PageElement } from './page-dom';

/** Far beyond any real page; parsing this deep still takes only milliseconds. */
export const MAX_PARSED_NESTING = 10_000;
/**
 * Chromium's parser stops nesting at 512 levels; real articles sit a few dozen levels deep. Readability
 * reads each element's subtree, so its cost grows with the depth kept: at 128, a hostile page of thousands
 * of deep chains costs it a few seconds, not minutes.
 */
export const MAX_KEPT_NESTING = 128;

/** Elements without an end tag, as htmlparser2 counts them. */
const VOID_TAGS = new Set(
  'area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr'.split(
    ' ',
  ),
);
/** Elements whose content htmlparser2 reads as text up to their end tag. */
const RAW_TEXT_TAGS = new Set(['script', 'style', 'title', 'textarea', 'xmp']);
const FORM_TAGS = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
/** What opening a tag closes when it is the current element (htmlparser2's table, so depths agree). */
const OPEN_IMPLIES_CLOSE = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ['rt', new Set(['rt', 'rp'])],
  ['rp', new Set(['rt', 'rp'])],
  ['tbody', new Set(['thead', 'tbody'])],
  ['tfoot', new Set(['thead', 'tbody'])],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map(
    (tag) => [tag, new Set(FORM_TAGS)] as const,
  ),
  ...`p h1 h2 h3 h4 h5 h6 address article aside blockquote details div dl fieldset figcaption figure footer form
   header hr main nav ol pre section table ul`
    .split(/\s+/)
    .map((tag) => [tag, new Set(['p'])] as const),
]);
const FOREIGN_TAGS = new Set(['svg', 'math']);

/**
 * The deepest nesting htmlparser2 would build from this markup, counted up to `limit` (the scan stops
 * there). One pass, each character read a bounded number of times.
 */
export function nestingDepth(html: string, limit = MAX_PARSED_NESTING): number {
  const lower = html.toLowerCase();
  const open: string[] = [];
  const openCounts = new Map<string, number>();
  let foreign = 0;
  let deepest = 0;
  const push = (tag: string) => {
    open.push(tag);
    openCounts.set(tag, (openCounts.get(tag) ?? 0) + 1);
    if (FOREIGN_TAGS.has(tag)) foreign += 1;
    deepest = Math.max(deepest, open.length);
  };
  const pop = () => {
    const tag = open.pop()!;
    openCounts.set(tag, openCounts.get(tag)! - 1);
    if (FOREIGN_TAGS.has(tag)) foreign -= 1;
    return tag;
  };
  let at = lower.indexOf('<');
  while (at !== -1 && at < lower.length && deepest <= limit) {
    const next = lower.charCodeAt(at + 1);
    if (next === 0x21 /* ! */) {
      const end = lower.startsWith('<!--', at) ? lower.indexOf('-->', at + 4) : lower.indexOf('>', at);
      at = end === -1 ? -1 : lower.indexOf('<', end + 1);
      continue;
    }
    const closing = next === 0x2f; /* / */
    const nameStart = at + (closing ? 2 : 1);
    const nameEnd = tagNameEnd(lower, nameStart);
    if (nameEnd === nameStart) {
      at = lower.indexOf('<', at + 1);
      continue;
    }
    const tag = lower.slice(nameStart, nameEnd);
    const tagEnd = startTagEnd(lower, nameEnd);
    if (tagEnd === -1) break;
    if (closing) {
      // htmlparser2 closes everything down to the nearest open element of that name, or ignores the tag.
      if (openCounts.get(tag)) {
        let closed: string | undefined;
        do closed = pop();
        while (closed !== tag);
      }
    } else {
      const closes = OPEN_IMPLIES_CLOSE.get(tag);
      while (closes && open.length > 0 && closes.has(open[open.length - 1]!)) pop();
      const selfClosing = foreign > 0 && lower.charCodeAt(tagEnd - 1) === 0x2f;
      if (VOID_TAGS.has(tag) || selfClosing) {
        at = lower.indexOf('<', tagEnd + 1);
        continue;
      }
      push(tag);
      if (RAW_TEXT_TAGS.has(tag)) {
        // Its text runs to its end tag; nothing in it is markup.
        const end = lower.indexOf(`</${tag}`, tagEnd + 1);
        if (end === -1) break;
        pop();
        at = lower.indexOf('<', end + 2);
        continue;
      }
    }
    at = lower.indexOf('<', tagEnd + 1);
  }
  return Math.min(deepest, limit + 1);
}

function tagNameEnd(text: string, from: number): number {
  let end = from;
  for (; end < text.length; end += 1) {
    const code = text.charCodeAt(end);
    const isNameChar =
      (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x3a;
    if (!isNameChar || (end === from && !(code >= 0x61 && code <= 0x7a))) break;
  }
  return end;
}

/** Index of the '>' that ends a tag; a quote opens a value only right after '=', as in htmlparser2. */
function startTagEnd(text: string, from: number): number {
  let afterEquals = false;
  for (let index = from; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0x3e /* > */) return index;
    if (afterEquals && (code === 0x22 || code === 0x27)) {
      const close = text.indexOf(text[index]!, index + 1);
      if (close === -1) return -1;
      index = close;
    }
    if (code === 0x3d /* = */) afterEquals = true;
    else if (code > 0x20) afterEquals = false;
  }
  return -1;
}

/**
 * Below MAX_KEPT_NESTING levels, an element's descendants are replaced by their text, as a browser would
 * have stopped nesting them long before. One walk; each flattened subtree is read once. Answers the sum of
 * every remaining element's depth: Readability's work on the page.
 */
export function keepDeepNestingAsText(document: PageDocument): number {
  let element: PageElement | null = document.documentElement;
  let depth = 1;
  // The same walk counts Readability's work on what is left (see MAX_READABILITY_WORK): one walk, not two.
  let work = 0;
  while (element) {
    if (depth >= MAX_KEPT_NESTING && element.firstElementChild) {
      const text = element.textContent;
      element.textContent = text; // the subtree's markup goes, its text stays
    }
    work += depth;
    const child: PageElement | null = element.firstElementChild;
    if (child) {
      element = child;
      depth += 1;
      continue;
    }
    while (element && !element.nextElementSibling) {
      element = element.parentElement;
      depth -= 1;
    }
    element = element?.nextElementSibling ?? null;
  }
  return work;
}

/**
 * Readability's work on a page grows with its elements times their depth (it scores each element's
 * ancestors and reads subtrees): 20,000 spans under 120 divs (sum of depths about 2.4 million) take it
 * 14 s. Real articles, long Wikipedia pages included, stay well below this; a page above it is saved with
 * its metadata and no body, the way a page without an article is.
 */
export const MAX_READABILITY_WORK = 1_000_000;
/** Readability's own guard (maxElemsToParse): a flat page of more elements than this is read no further. */
export const MAX_READABILITY_ELEMENTS = 60_000;
