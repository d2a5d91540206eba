// The images of a stored article body: which addresses to archive, and the body once they are archived.
// The body was sanitised when it was saved (sanitize-article.ts), so these passes keep every tag and
// attribute and only touch <img> and <source>; sanitize-html's parser is linear in the input.
import { ARCHIVED_IMAGE_PATH } from '@lectern/shared-schema';
import sanitizeHtml from 'sanitize-html';

/** The address an <img> shows: its src, else the last (usually largest) candidate of its srcset. */
function imageAddress(attribs: sanitizeHtml.Attributes): string | null {
  if (attribs.src) return attribs.src;
  const candidates = (attribs.srcset ?? '').split(/,\s+/);
  const last = candidates[candidates.length - 1]?.trim().split(/\s+/)[0];
  return last || null;
}

const KEEP_EVERYTHING: sanitizeHtml.IOptions = {
  allowedTags: false,
  allowedAttributes: false,
  allowVulnerableTags: true, // nothing is allowed here that the save's sanitizer did not already allow
  disallowedTagsMode: 'discard',
  selfClosing: ['img', 'br', 'hr', 'source', 'col', 'wbr'],
};

/** The addresses of the body's images, in order, each once. */
export function findArticleImages(html: string): string[] {
  const found = new Set<string>();
  sanitizeHtml(html, {
    ...KEEP_EVERYTHING,
    transformTags: {
      img: (tagName, attribs) => {
        const address = imageAddress(attribs);
        if (address && /^https?:/i.test(address)) found.add(address);
        return { tagName, attribs };
      },
    },
  });
  return [...found];
}

/**
 * The body with every image pointing at its archived copy (`archived`: original address → the server's
 * own), srcset and <source> gone (only the archived candidate is kept, as src), and every image that could
 * not be archived dropped: nothing in the body loads from another site any more.
 */
export function rewriteArticleImages(html: string, archived: Record<string, string>): string {
  return sanitizeHtml(html, {
    ...KEEP_EVERYTHING,
    transformTags: {
      img: (tagName, attribs) => {
        const address = imageAddress(attribs);
        // An image archived by an earlier pass keeps its address.
        const local = address?.startsWith(ARCHIVED_IMAGE_PATH)
          ? address
          : address
            ? archived[address]
            : undefined;
        const { src: _src, srcset: _srcset, sizes: _sizes, ...rest } = attribs;
        return { tagName, attribs: local ? { ...rest, src: local } : rest };
      },
    },
    exclusiveFilter: (frame) => (frame.tag === 'img' && !frame.attribs.src) || frame.tag === 'source',
  });
}
