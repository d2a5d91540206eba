// @vitest-environment jsdom
// DOMPurify does not support happy-dom (cure53/DOMPurify#1457), so the sanitizer is checked on jsdom.
import { describe, expect, it } from 'vitest';
import { sanitizeArticleHtml } from './sanitize-article';

function parse(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = sanitizeArticleHtml(html);
  return root;
}

describe('sanitizeArticleHtml', () => {
  it('removes scripts, handlers, javascript: links, frames, forms and inline styles', () => {
    const root = parse(
      '<p onclick="steal()" style="position:fixed">Text<script>steal()</script></p>' +
        '<a href="javascript:steal()">bad</a><iframe src="https://evil.example"></iframe>' +
        '<form action="/x"><input name="q"><button>Go</button></form><img src="x.png" onerror="steal()">',
    );
    expect(root.querySelector('script, iframe, form, input, button')).toBeNull();
    expect(root.querySelector('[onclick], [onerror], [style]')).toBeNull();
    expect(root.querySelector('a')!.getAttribute('href')).toBeNull();
    expect(root.textContent).toContain('Text');
  });

  it('keeps ordinary article markup', () => {
    const html =
      '<h2>Heading</h2><p>Some <em>emphasis</em>, <strong>strength</strong> and <code>code</code>.</p>' +
      '<blockquote><p>Quote</p></blockquote><ul><li>one</li></ul><figure><img src="https://a.example/i.png" alt="A">' +
      '<figcaption>Caption</figcaption></figure><pre><code class="language-ts">let x = 1;</code></pre>';
    const root = parse(html);
    for (const selector of [
      'h2',
      'em',
      'strong',
      'blockquote p',
      'ul li',
      'figure img',
      'figcaption',
      'pre code',
    ]) {
      expect(root.querySelector(selector), selector).not.toBeNull();
    }
    expect(root.querySelector('img')!.getAttribute('alt')).toBe('A');
  });

  it('opens links in a new tab without giving the page a handle on the app', () => {
    const link = parse('<a href="https://example.com/more">more</a>').querySelector('a')!;
    expect(link.getAttribute('href')).toBe('https://example.com/more');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it("drops ids and the article's own classes, keeping code languages", () => {
    const root = parse(
      '<p id="main" class="button card">x</p><pre><code class="hljs language-python">y</code></pre>',
    );
    expect(root.querySelector('#main')).toBeNull();
    expect(root.querySelector('p')!.hasAttribute('class')).toBe(false);
    expect(root.querySelector('code')!.className).toBe('language-python');
  });

  it('lets images load lazily', () => {
    const image = parse('<img src="https://a.example/i.png" alt="">').querySelector('img')!;
    expect(image.getAttribute('loading')).toBe('lazy');
  });
});
