import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { keepDeepNestingAsText, MAX_KEPT_NESTING, nestingDepth } from './nesting';
import { parsePage, type PageElement } from './page-dom';

/** The deepest element of the parsed page, counted from <html> as 1. */
function parsedDepth(html: string): number {
  const depthOf = (element: PageElement): number => {
    let depth = 1;
    for (let child = element.firstElementChild; child; child = child.nextElementSibling)
      depth = Math.max(depth, 1 + depthOf(child));
    return depth;
  };
  return depthOf(parsePage(html).documentElement);
}

describe('nestingDepth', () => {
  it.each(['news-article', 'blog-lazy-images', 'json-ld-article', 'rich-article', 'not-readerable'])(
    'counts %s no shallower than the parser builds it',
    async (name) => {
      const html = await readFile(new URL(`../../test/fixtures/pages/${name}.html`, import.meta.url), 'utf8');
      const counted = nestingDepth(html);
      // Open elements are counted; a void element (an <img>) sits one level below them.
      expect(counted + 1).toBeGreaterThanOrEqual(parsedDepth(html));
      expect(counted).toBeLessThan(40);
    },
  );

  it.each([
    ['unclosed paragraphs and list items', '<p>a<p>b<ul><li>a<li>b<li>c</ul><p>c'.repeat(1_000), 10],
    ['void and self-closed svg elements', `<svg>${'<path d="M0 0"/><br><img src=a>'.repeat(1_000)}</svg>`, 5],
    [
      'tags inside comments, scripts and quoted attributes',
      '<!-- <div> --><script>"<div>"</script><a title="<div>">x</a>'.repeat(1_000),
      5,
    ],
  ])('does not mistake %s for depth', (_name, body, expected) => {
    expect(nestingDepth(`<html><body>${body}</body></html>`)).toBeLessThanOrEqual(expected);
  });

  it('sees unclosed and self-closed (outside svg) elements nest', () => {
    expect(nestingDepth('<noscript>'.repeat(500))).toBe(500);
    expect(nestingDepth('<div/>'.repeat(500))).toBe(500);
  });

  it('stops counting past the limit, in linear time over megabytes', () => {
    const start = performance.now();
    expect(nestingDepth('<noscript>'.repeat(1_000_000), 10_000)).toBe(10_001);
    expect(nestingDepth('<b>x</b>'.repeat(1_000_000))).toBe(1);
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});

describe('keepDeepNestingAsText', () => {
  it('keeps the text of elements nested past the limit, without their markup', () => {
    const document = parsePage(
      `<html><body>${'<div>'.repeat(300)}<p>deep text</p>${'</div>'.repeat(300)}</body></html>`,
    );
    keepDeepNestingAsText(document);
    expect(document.body.textContent).toBe('deep text');
    expect(parsedDepth(document.documentElement.innerHTML)).toBeLessThanOrEqual(MAX_KEPT_NESTING + 1);
  });
});
