// The article body is sanitized by the server, and once more here before it becomes DOM: the device's
// database is only as trustworthy as whatever wrote into it. Besides DOMPurify's defaults, ids and
// styling hooks are removed so an article can't collide with the app's own ids and classes.
// The server's own copies of images need the token: their address moves to `data-archived-src`, which
// the reader fills in from the device (hooks/use-archived-images.ts), and srcset keeps only other sites'.
import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';
import { isKeptImageAddress } from '../../data';
import { ARCHIVED_SRC_ATTRIBUTE } from '../../hooks/use-archived-images';

const FORBIDDEN_TAGS = [
  'style',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'iframe',
  'frame',
];
const FORBIDDEN_ATTRIBUTES = ['style', 'id', 'name', 'tabindex', 'autofocus', 'contenteditable'];
/** Classes an article keeps: code languages, which code styling reads. */
const KEPT_CLASS = /^lang(uage)?-[\w+#-]+$/;

let purifier: Purifier | null = null;

function articlePurifier(): Purifier {
  if (purifier) return purifier;
  const instance = DOMPurify(window);
  instance.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName !== 'class') return;
    data.attrValue = data.attrValue
      .split(/\s+/)
      .filter((name) => KEPT_CLASS.test(name))
      .join(' ');
    if (data.attrValue === '') data.keepAttr = false;
  });
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
    if (node.tagName === 'IMG' || node.tagName === 'SOURCE') keepArchivedImagesOffTheNetwork(node);
    if (node.tagName === 'IMG') {
      node.setAttribute('loading', 'lazy');
      node.setAttribute('decoding', 'async');
    }
  });
  purifier = instance;
  return instance;
}

function keepArchivedImagesOffTheNetwork(node: Element): void {
  const src = node.getAttribute('src');
  if (isKeptImageAddress(src)) {
    node.removeAttribute('src');
    node.setAttribute(ARCHIVED_SRC_ATTRIBUTE, src);
    // The device's copy is the picture shown: a candidate of another size would load in its place.
    node.removeAttribute('srcset');
  }
  const srcset = node.getAttribute('srcset');
  if (srcset === null) return;
  const others = srcset
    .split(',')
    .map((candidate) => candidate.trim())
    .filter((candidate) => candidate !== '' && !candidate.startsWith('/api/'));
  if (others.length === 0) node.removeAttribute('srcset');
  else node.setAttribute('srcset', others.join(', '));
}

export function sanitizeArticleHtml(html: string): string {
  return articlePurifier().sanitize(html, {
    FORBID_TAGS: FORBIDDEN_TAGS,
    FORBID_ATTR: FORBIDDEN_ATTRIBUTES,
    ADD_ATTR: ['target'],
  });
}
