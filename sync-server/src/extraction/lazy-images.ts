// Pages that load images with scripts keep the real address in data-* attributes or a <noscript>
// copy; the reader runs no page scripts, so the real addresses are put where a browser would look.
import type { PageDocument, PageElement } from './page-dom';
import { parsePage } from './page-dom';

const LAZY_SRC_ATTRIBUTES = [
  'data-src',
  'data-lazy-src',
  'data-original',
  'data-hi-res-src',
  'data-url',
  'data-echo',
];
const LAZY_SRCSET_ATTRIBUTES = ['data-srcset', 'data-lazy-srcset', 'data-original-srcset'];

export function resolveLazyImages(document: PageDocument): void {
  unwrapNoscriptImages(document);
  for (const image of document.querySelectorAll('img, source')) {
    const lazySrcset = firstAttribute(image, LAZY_SRCSET_ATTRIBUTES);
    if (lazySrcset) image.setAttribute('srcset', lazySrcset);
    if (image.tagName !== 'IMG') continue;
    const lazySrc = firstAttribute(image, LAZY_SRC_ATTRIBUTES);
    if (lazySrc) image.setAttribute('src', lazySrc);
    else if (isPlaceholder(image.getAttribute('src'))) {
      const fromSrcset = largestCandidate(image.getAttribute('srcset'));
      if (fromSrcset) image.setAttribute('src', fromSrcset);
    }
  }
}

/**
 * `<img placeholder><noscript><img real></noscript>`: the real image takes the placeholder's place. The
 * <noscript> copy is what the page shows without scripts, and the reader runs none.
 */
function unwrapNoscriptImages(document: PageDocument): void {
  for (const noscript of document.querySelectorAll('noscript')) {
    const realImage = noscriptImage(noscript);
    if (!realImage) continue;
    const previous = noscript.previousElementSibling;
    const placeholder = previous?.tagName === 'IMG' ? previous : soleImageOf(previous);
    const alt = placeholder?.getAttribute('alt');
    if (alt && !realImage.getAttribute('alt')) realImage.setAttribute('alt', alt);
    placeholder?.remove();
    noscript.replaceWith(realImage);
  }
}

function noscriptImage(noscript: PageElement): PageElement | null {
  const direct = noscript.querySelector('img');
  if (direct) return direct;
  // Some parsers keep <noscript> content as text; read it as markup.
  const text = noscript.textContent ?? '';
  return /<img\b/i.test(text) ? parsePage(text).querySelector('img') : null;
}

function soleImageOf(element: PageElement | null | undefined): PageElement | null {
  if (!element || element.childElementCount !== 1 || (element.textContent ?? '').trim()) return null;
  const child = element.firstElementChild;
  return child?.tagName === 'IMG' ? child : soleImageOf(child);
}

function isPlaceholder(src: string | null): boolean {
  if (!src || /^data:/i.test(src)) return true;
  // The file name alone, tested by two patterns that can't backtrack (one combined pattern took the square
  // of the length of a src like 'lazy'.repeat(n)).
  const fileName = src.slice(src.lastIndexOf('/') + 1);
  return (
    /\.(?:gif|png|svg)$/i.test(fileName) && /blank|spacer|placeholder|transparent|pixel|lazy/i.test(fileName)
  );
}

function firstAttribute(element: PageElement, names: string[]): string | null {
  for (const name of names) {
    const value = element.getAttribute(name)?.trim();
    if (value) return value;
  }
  return null;
}

/** The widest candidate of a srcset ("a.jpg 400w, b.jpg 800w" gives b.jpg). */
function largestCandidate(srcset: string | null): string | null {
  let best: { url: string; size: number } | null = null;
  for (const candidate of (srcset ?? '').split(/,\s+/)) {
    const [url, descriptor = '1x'] = candidate.trim().split(/\s+/);
    const size = parseFloat(descriptor) || 1;
    if (url && (!best || size > best.size)) best = { url, size };
  }
  return best?.url ?? null;
}
