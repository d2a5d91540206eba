// Test support: the invariants every stored article body must satisfy, checked on a real parse of it.
// Used by the sanitizer tests on their own output and on whole hostile pages.
import { expect } from 'vitest';
import { parsePage, type PageElement } from './page-dom';

const INERT_TAGS = new Set(
  `p br hr h1 h2 h3 h4 h5 h6 div span section article header footer aside main details summary address ul ol
   li dl dt dd blockquote q cite pre code kbd samp var em strong b i u s del ins mark small sub sup abbr time
   dfn bdi bdo wbr a img figure figcaption picture source table caption colgroup col thead tbody tfoot tr th td`
    .split(/\s+/)
    .map((tag) => tag.toUpperCase()),
);
const URL_ATTRIBUTES = new Set(['href', 'src', 'cite']);

export function expectInertHtml(html: string): void {
  const body = parsePage(`<!doctype html><html><head></head><body>${html}</body></html>`).body;
  for (const element of body.querySelectorAll('*')) {
    expect(INERT_TAGS, `<${element.tagName.toLowerCase()}> in ${html}`).toContain(element.tagName);
    for (const name of attributeNames(element)) {
      expect(name, `attribute ${name} in ${html}`).not.toMatch(
        /^on|^style$|^id$|^name$|^srcdoc$|action$|^xlink|^data/,
      );
      const value = element.getAttribute(name) ?? '';
      if (URL_ATTRIBUTES.has(name)) expect(isSafeUrl(value, element.tagName === 'A'), value).toBe(true);
      if (name === 'srcset') {
        for (const candidate of value.split(/,\s+/))
          expect(isSafeUrl(candidate.split(/\s+/)[0] ?? '', false)).toBe(true);
      }
      if (name === 'target') expect(value).toBe('_blank');
      if (name === 'rel') expect(value).toBe('noopener noreferrer');
    }
    if (element.tagName === 'A' && element.getAttribute('href'))
      expect(element.getAttribute('rel')).toBe('noopener noreferrer');
  }
}

function attributeNames(element: PageElement): string[] {
  const names: string[] = [];
  for (const attribute of element.attributes) {
    names.push(attribute.name.toLowerCase());
  }
  return names;
}

function isSafeUrl(value: string, allowMailto: boolean): boolean {
  try {
    const url = new URL(value);
    return (
      url.href === value &&
      (['http:', 'https:'].includes(url.protocol) || (allowMailto && url.protocol === 'mailto:'))
    );
  } catch {
    return false;
  }
}
