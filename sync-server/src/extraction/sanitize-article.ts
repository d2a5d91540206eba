// The allowlist every extracted article passes before it is stored and later injected into the reader.
// Only plain document markup survives; anything that runs code, loads active content, submits, restyles
// or re-bases the page is gone. Every URL is made absolute against the page and must be http(s)
// (mailto for links), so nothing relative can point at our own API from inside the reader.
import sanitizeHtml from 'sanitize-html';

const ALLOWED_TAGS = [
  ...['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'span', 'section', 'article'],
  ...['header', 'footer', 'aside', 'main', 'details', 'summary', 'address'],
  ...['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'blockquote', 'q', 'cite', 'pre', 'code', 'kbd', 'samp', 'var'],
  ...['em', 'strong', 'b', 'i', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'abbr', 'time'],
  ...['dfn', 'bdi', 'bdo', 'wbr', 'a', 'img', 'figure', 'figcaption', 'picture', 'source'],
  ...['table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'],
];

const ALLOWED_ATTRIBUTES: sanitizeHtml.IOptions['allowedAttributes'] = {
  '*': ['lang', 'dir', 'title'],
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

/** Content of these is dropped with the tag: it is code, styling or markup from a foreign namespace. */
const DROPPED_WITH_CONTENT = [
  ...['script', 'style', 'template', 'noscript', 'textarea', 'option', 'select', 'title', 'xmp'],
  ...['iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'noembed', 'noframes', 'plaintext'],
  ...['svg', 'math', 'button', 'head', 'video', 'audio', 'canvas', 'map', 'dialog'],
];

const URL_ATTRIBUTES = ['href', 'src', 'cite'] as const;

export function sanitizeArticleHtml(html: string, pageUrl: string): string {
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: ALLOWED_ATTRIBUTES,
    allowedClasses: { code: [/^language-[\w-]+$/], pre: [/^language-[\w-]+$/] },
    allowedSchemes: ['http', 'https'],
    allowedSchemesByTag: { a: ['http', 'https', 'mailto'] },
    allowedSchemesAppliedToAttributes: [...URL_ATTRIBUTES],
    allowProtocolRelative: false,
    allowedStyles: {},
    disallowedTagsMode: 'discard',
    selfClosing: ['img', 'br', 'hr', 'source', 'col', 'wbr'],
    nonTextTags: DROPPED_WITH_CONTENT,
    transformTags: {
      '*': (tagName, attribs) => {
        const safe = absoluteUrls(tagName, attribs, pageUrl);
        // Links leave the reader for a new tab that can't reach back into it.
        if (tagName === 'a') Object.assign(safe, { target: '_blank', rel: 'noopener noreferrer' });
        return { tagName, attribs: safe };
      },
    },
    exclusiveFilter: (frame) => {
      // An image or source whose every address was refused is an empty box; a link without one is text.
      if (frame.tag === 'img') return !frame.attribs.src && !frame.attribs.srcset;
      if (frame.tag === 'source') return !frame.attribs.srcset;
      return frame.tag === 'a' && !frame.attribs.href ? 'excludeTag' : false;
    },
  });
}

function absoluteUrls(
  tagName: string,
  attribs: sanitizeHtml.Attributes,
  pageUrl: string,
): sanitizeHtml.Attributes {
  const result: sanitizeHtml.Attributes = { ...attribs };
  for (const name of URL_ATTRIBUTES) {
    const value = result[name];
    if (value === undefined) continue;
    const absolute = safeAbsoluteUrl(
      value,
      pageUrl,
      tagName === 'a' ? ['http:', 'https:', 'mailto:'] : undefined,
    );
    if (absolute) result[name] = absolute;
    else delete result[name];
  }
  if (result.srcset !== undefined) {
    const srcset = absoluteSrcset(result.srcset, pageUrl);
    if (srcset) result.srcset = srcset;
    else delete result.srcset;
  }
  return result;
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
