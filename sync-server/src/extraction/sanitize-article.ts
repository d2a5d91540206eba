// The allowlist every extracted article passes before it is stored and later injected into the reader.
// Only plain document markup survives; anything that runs code, loads active content, submits, restyles
// or re-bases the page is gone. Every URL is made absolute against the page and must be http(s)
// (mailto for links), so nothing relative can point at our own API from inside the reader.
//
// It walks a parsed tree and writes the HTML itself: every kept attribute value and every text is escaped
// here, so what the reader's browser parses is exactly the tree written out, whatever the input's markup
// was. The save pipeline hands it Readability's own tree, so an article is parsed once, not serialised by
// Readability and parsed again by a sanitizer (issue 16's extraction figure); an HTML string (an import's
// stored body) is parsed first. The output is the canonical form sanitize-html wrote before it, so stored
// articles and their tests read the same: void tags as `<img ... />`, text escaping only & < >.
import { MAX_PARSED_NESTING, nestingDepth } from './nesting';
import { parsePage, type PageNode } from './page-dom';

const ALLOWED_TAGS = new Set([
  ...['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'span', 'section', 'article'],
  ...['header', 'footer', 'aside', 'main', 'details', 'summary', 'address'],
  ...['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'blockquote', 'q', 'cite', 'pre', 'code', 'kbd', 'samp', 'var'],
  ...['em', 'strong', 'b', 'i', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'abbr', 'time'],
  ...['dfn', 'bdi', 'bdo', 'wbr', 'a', 'img', 'figure', 'figcaption', 'picture', 'source'],
  ...['table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'],
]);

/** Written as `<tag ... />`, never with content or an end tag. */
const VOID_TAGS = new Set(['img', 'br', 'hr', 'source', 'col', 'wbr']);

const GLOBAL_ATTRIBUTES = ['lang', 'dir', 'title'];
const ALLOWED_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href', 'target', 'rel'],
  img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height'],
  source: ['srcset', 'sizes', 'media', 'type'],
  blockquote: ['cite'],
  q: ['cite'],
  del: ['cite', 'datetime'],
  ins: ['cite', 'datetime'],
  time: ['datetime'],
  ol: ['start', 'reversed', 'type'],
  li: ['value'],
  td: ['colspan', 'rowspan', 'headers'],
  th: ['colspan', 'rowspan', 'headers', 'scope'],
  col: ['span'],
  colgroup: ['span'],
  code: ['class'],
  pre: ['class'],
};
const ATTRIBUTES_OF = new Map(
  [...ALLOWED_TAGS].map((tag) => [tag, new Set([...GLOBAL_ATTRIBUTES, ...(ALLOWED_ATTRIBUTES[tag] ?? [])])]),
);
/** The one attribute meaningful without a value; any other empty attribute but alt="" is dropped. */
const BOOLEAN_ATTRIBUTES = new Set(['reversed']);
const CODE_LANGUAGE_CLASS = /^language-[\w-]+$/;

/** Content of these is dropped with the tag: it is code, styling or markup from a foreign namespace. */
const DROPPED_WITH_CONTENT = new Set([
  ...['script', 'style', 'template', 'noscript', 'textarea', 'option', 'select', 'title', 'xmp'],
  ...['iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'noembed', 'noframes', 'plaintext'],
  ...['svg', 'math', 'button', 'head', 'video', 'audio', 'canvas', 'map', 'dialog'],
]);

const URL_ATTRIBUTES = ['href', 'src', 'cite'] as const;

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/**
 * An HTML string (a fragment or a whole page) as the allowlist keeps it. Markup nested deeper than any real
 * page keeps nothing, as a fetched page that deep is saved without a body (article-extraction.ts): the
 * parser's time grows faster than the nesting (2 MB of open <div>s took 96 s).
 */
export function sanitizeArticleHtml(html: string, pageUrl: string): string {
  if (nestingDepth(html) > MAX_PARSED_NESTING) return '';
  const document = parsePage(`<!doctype html><html><head></head><body>${html}</body></html>`);
  // The whole tree, not only <body>: whatever the markup, nothing it holds is read anywhere else.
  return sanitizeArticleChildren(document.documentElement, pageUrl);
}

/** What the allowlist keeps of an element's content (Readability's article, say), as HTML. */
export function sanitizeArticleChildren(parent: PageNode, pageUrl: string): string {
  const out: string[] = [];
  writeChildren(parent, pageUrl, out);
  return out.join('');
}

/**
 * Writes what the allowlist keeps of `root`'s children. Iterative, with its own stack: an imported body
 * can nest deeper than the call stack would go.
 */
function writeChildren(root: PageNode, pageUrl: string, out: string[]): void {
  const open: { next: PageNode | null; endTag: string | null }[] = [];
  let node = root.firstChild;
  for (;;) {
    if (!node) {
      const parent = open.pop();
      if (!parent) return;
      if (parent.endTag) out.push(parent.endTag);
      node = parent.next;
      continue;
    }
    if (node.nodeType === TEXT_NODE) out.push(escapeText(node.nodeValue ?? ''));
    if (node.nodeType !== ELEMENT_NODE) {
      node = node.nextSibling; // comments, CDATA and processing instructions are dropped
      continue;
    }
    const written = writeStartTag(node, pageUrl, out);
    if (written === 'dropped' || written === 'void') {
      node = node.nextSibling;
      continue;
    }
    // 'unwrapped': the tag goes, what it holds stays; otherwise the tag is closed after its content.
    open.push({ next: node.nextSibling, endTag: written === 'unwrapped' ? null : `</${written}>` });
    node = node.firstChild;
  }
}

/**
 * Writes an element's start tag if the allowlist keeps it: answers its tag name (content and end tag to
 * follow), 'void' (nothing follows), 'unwrapped' (only its content is kept) or 'dropped' (nothing is).
 */
function writeStartTag(element: PageNode, pageUrl: string, out: string[]): string {
  const tag = (element.localName ?? '').toLowerCase();
  if (DROPPED_WITH_CONTENT.has(tag)) return 'dropped';
  const allowedAttributes = ATTRIBUTES_OF.get(tag);
  if (!allowedAttributes) return 'unwrapped';
  const attributes = keptAttributes(element, tag, allowedAttributes, pageUrl);
  // An image or source whose every address was refused is an empty box; a link without one is text.
  if (tag === 'img' && !attributes.has('src') && !attributes.has('srcset')) return 'dropped';
  if (tag === 'source' && !attributes.has('srcset')) return 'dropped';
  if (tag === 'a' && !attributes.has('href')) return 'unwrapped';
  let start = `<${tag}`;
  for (const [name, value] of attributes)
    start +=
      value === '' && BOOLEAN_ATTRIBUTES.has(name) ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`;
  if (VOID_TAGS.has(tag)) {
    out.push(`${start} />`);
    return 'void';
  }
  out.push(`${start}>`);
  return tag;
}

/** The element's allowed attributes, in their order, with addresses made absolute or dropped. */
function keptAttributes(
  element: PageNode,
  tag: string,
  allowed: ReadonlySet<string>,
  pageUrl: string,
): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const { name: rawName, value } of element.attributes ?? []) {
    const name = rawName.toLowerCase(); // the parser keeps names as written (ONMOUSEOVER)
    if (!allowed.has(name) || attributes.has(name)) continue;
    attributes.set(name, value);
  }
  for (const name of URL_ATTRIBUTES) {
    const value = attributes.get(name);
    if (value === undefined) continue;
    const absolute = safeAbsoluteUrl(
      value,
      pageUrl,
      tag === 'a' ? ['http:', 'https:', 'mailto:'] : undefined,
    );
    if (absolute) attributes.set(name, absolute);
    else attributes.delete(name);
  }
  const srcset = attributes.get('srcset');
  if (srcset !== undefined) {
    const absolute = absoluteSrcset(srcset, pageUrl);
    if (absolute) attributes.set('srcset', absolute);
    else attributes.delete('srcset');
  }
  const classes = attributes.get('class');
  if (classes !== undefined) {
    const languages = classes.split(/\s+/).filter((name) => CODE_LANGUAGE_CLASS.test(name));
    if (languages.length) attributes.set('class', languages.join(' '));
    else attributes.delete('class');
  }
  // Links leave the reader for a new tab that can't reach back into it.
  if (tag === 'a') {
    attributes.set('target', '_blank');
    attributes.set('rel', 'noopener noreferrer');
  }
  for (const [name, value] of attributes)
    if (value === '' && name !== 'alt' && !BOOLEAN_ATTRIBUTES.has(name)) attributes.delete(name);
  return attributes;
}

const TEXT_SPECIALS = /[&<>]/;
const ATTRIBUTE_SPECIALS = /[&<>"]/;

// Not shared-schema's escapeHtml: that one also writes &#39; and &quot; in text, which htmlToText (the
// search text of every stored body, on the server and the device) reads only as &amp; &lt; &gt; &quot;.
function escapeText(text: string): string {
  if (!TEXT_SPECIALS.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  if (!ATTRIBUTE_SPECIALS.test(value)) return value;
  return escapeText(value).replace(/"/g, '&quot;');
}

export function safeAbsoluteUrl(value: string, base: string, protocols = ['http:', 'https:']): string | null {
  try {
    const url = new URL(value.trim(), base);
    return protocols.includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

function absoluteSrcset(srcset: string, base: string): string | null {
  const candidates = srcset
    // A comma before a scheme ("a.jpg 1x,https://b.jpg 2x") separates too. The lookahead stops at the next
    // comma: `\S+` there made a srcset of a million commas take the square of its length.
    .split(/,\s+|,(?=[^\s,]+:)/)
    .map((candidate) => candidate.trim().split(/\s+/))
    .flatMap(([url, ...descriptors]) => {
      const absolute = url ? safeAbsoluteUrl(url, base) : null;
      return absolute ? [[absolute, ...descriptors].join(' ')] : [];
    });
  return candidates.length ? candidates.join(', ') : null;
}
