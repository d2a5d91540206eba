import { describe, expect, it } from 'vitest';
import { readFixturePage } from '../../test/fixtures/fixture-server';
import { expectInertHtml } from './inert-html';
import { extractArticle } from './index';
import { sanitizeArticleHtml } from './sanitize-article';

const PAGE = 'https://page.example/dir/page.html';

/** [vector, hostile markup, exactly what may remain of it] */
const VECTORS: [string, string, string][] = [
  ['script element', `<p>a</p><script>alert('x')</script>`, '<p>a</p>'],
  ['external script', '<script src="https://evil.example/x.js"></script><p>a</p>', '<p>a</p>'],
  [
    'onerror handler',
    '<img src="https://img.example/a.png" onerror="alert(1)">',
    '<img src="https://img.example/a.png" />',
  ],
  ['onload on body-level div', '<div onload="alert(1)" onmouseover="alert(2)">a</div>', '<div>a</div>'],
  [
    'upper-case handler',
    '<a href="https://ok.example/" ONMOUSEOVER="alert(1)">a</a>',
    '<a href="https://ok.example/" target="_blank" rel="noopener noreferrer">a</a>',
  ],
  ['javascript: link', '<a href="javascript:alert(1)">a</a>', 'a'],
  ['mixed-case javascript: link', '<a href="JaVaScRiPt:alert(1)">a</a>', 'a'],
  ['decimal-entity javascript: link', '<a href="&#106;avascript:alert(1)">a</a>', 'a'],
  [
    'hex-entity javascript: link',
    '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">a</a>',
    'a',
  ],
  ['tab inside javascript:', '<a href="java&#x09;script:alert(1)">a</a>', 'a'],
  ['control characters before javascript:', '<a href=" &#x01; javascript:alert(1)">a</a>', 'a'],
  ['&colon; entity', '<a href="javascript&colon;alert(1)">a</a>', 'a'],
  ['vbscript: link', '<a href="vbscript:msgbox(1)">a</a>', 'a'],
  ['data:text/html link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">a</a>', 'a'],
  ['data: image', '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+PC9zdmc+" alt="x">', ''],
  [
    'javascript: in srcset',
    '<img srcset="javascript:alert(1) 1x, https://img.example/a.png 2x" alt="a">',
    '<img srcset="https://img.example/a.png 2x" alt="a" />',
  ],
  [
    'javascript: in <source srcset>',
    '<picture><source srcset="javascript:alert(1)"><img src="https://img.example/a.png" alt="a"></picture>',
    '<picture><img src="https://img.example/a.png" alt="a" /></picture>',
  ],
  [
    'javascript: blockquote cite',
    '<blockquote cite="javascript:alert(1)"><p>q</p></blockquote>',
    '<blockquote><p>q</p></blockquote>',
  ],
  ['iframe', '<iframe src="https://evil.example/"></iframe><p>a</p>', '<p>a</p>'],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>', ''],
  ['javascript: iframe', '<iframe src="javascript:alert(1)"></iframe>', ''],
  ['object', '<object data="https://evil.example/x.swf"><param name="x" value="y"></object>', ''],
  ['embed', '<embed src="https://evil.example/x.swf">', ''],
  ['applet', '<applet code="X.class">fallback</applet>', ''],
  [
    'form with inputs',
    '<form action="https://evil.example/steal"><input name="password"><button>Go</button></form>',
    '',
  ],
  ['formaction button', '<button formaction="javascript:alert(1)">go</button>', ''],
  ['isindex', '<isindex action="javascript:alert(1)">', ''],
  ['base element', '<base href="https://evil.example/"><p>a</p>', '<p>a</p>'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)"><p>a</p>', '<p>a</p>'],
  ['link stylesheet', '<link rel="stylesheet" href="https://evil.example/x.css"><p>a</p>', '<p>a</p>'],
  ['style element', '<style>body{background:url(javascript:alert(1))}</style><p>a</p>', '<p>a</p>'],
  [
    'style attribute',
    '<p style="background-image:url(javascript:alert(1));position:fixed">a</p>',
    '<p>a</p>',
  ],
  ['svg onload', '<svg onload="alert(1)"><circle r="1"></circle></svg><p>a</p>', '<p>a</p>'],
  ['script inside svg', '<svg><script>alert(1)</script></svg>', ''],
  ['svg xlink:href', '<svg><a xlink:href="javascript:alert(1)"><text>t</text></a></svg>', ''],
  ['svg animate onbegin', '<svg><animate onbegin="alert(1)" attributeName="x" dur="1s"></animate></svg>', ''],
  [
    'svg set to javascript:',
    '<svg><a><set attributeName="href" to="javascript:alert(1)"></set><text>t</text></a></svg>',
    '',
  ],
  [
    'svg foreignObject',
    '<svg><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject></svg>',
    '',
  ],
  [
    'MathML namespace confusion',
    '<math><mtext><table><mglyph><style><img src=x onerror="alert(1)"></style></mglyph></table></mtext></math>',
    '',
  ],
  ['MathML href', '<math href="javascript:alert(1)">m</math>', ''],
  [
    'noscript title break-out',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>',
    '',
  ],
  ['template', '<template><img src=x onerror="alert(1)"></template>', ''],
  ['textarea raw text', '<textarea><img src=x onerror="alert(1)"></textarea>', ''],
  ['title raw text', '<title><img src=x onerror="alert(1)"></title>', ''],
  ['xmp raw text', '<xmp><img src=x onerror="alert(1)"></xmp>', ''],
  ['comment', '<!--<img src=x onerror="alert(1)">--><p>a</p>', '<p>a</p>'],
  ['CDATA', '<![CDATA[<script>alert(1)</script>]]><p>a</p>', '<p>a</p>'],
  ['video source onerror', '<video><source src="x" onerror="alert(1)"></video>', ''],
  ['audio onerror', '<audio src="x" onerror="alert(1)"></audio>', ''],
  [
    'details ontoggle',
    '<details open ontoggle="alert(1)"><summary>s</summary>d</details>',
    '<details><summary>s</summary>d</details>',
  ],
  ['marquee onstart', '<marquee onstart="alert(1)">m</marquee>', 'm'],
  ['autofocus input', '<input autofocus onfocus="alert(1)">', ''],
  ['frameset', '<frameset onload="alert(1)"></frameset>', ''],
  [
    'dom clobbering ids',
    '<img name="getElementById" id="x" src="https://img.example/a.png"><a id="__proto__" href="https://ok.example/">a</a>',
    '<img src="https://img.example/a.png" /><a href="https://ok.example/" target="_blank" rel="noopener noreferrer">a</a>',
  ],
  [
    'target and opener rel',
    '<a href="https://ok.example/" target="_self" rel="opener">a</a>',
    '<a href="https://ok.example/" target="_blank" rel="noopener noreferrer">a</a>',
  ],
  [
    'relative url',
    '<a href="/../../api/account">a</a><img src="avatar.png">',
    '<a href="https://page.example/api/account" target="_blank" rel="noopener noreferrer">a</a><img src="https://page.example/dir/avatar.png" />',
  ],
  [
    'protocol-relative url',
    '<img src="//evil.example/a.png"><a href="//evil.example/">a</a>',
    '<img src="https://evil.example/a.png" /><a href="https://evil.example/" target="_blank" rel="noopener noreferrer">a</a>',
  ],
  [
    'attribute quote confusion',
    '<img src="x` `<script>alert(1)</script>"` `>',
    '<img src="https://page.example/dir/x%60%20%60%3Cscript%3Ealert(1)%3C/script%3E" />',
  ],
  ['eval of src', '<img src=x:alert(alt) onerror=eval(src) alt=0>', ''],
];

describe('sanitizeArticleHtml neutralises every vector', () => {
  it(`has ${VECTORS.length} distinct vectors`, () => {
    expect(new Set(VECTORS.map(([, html]) => html)).size).toBe(VECTORS.length);
    expect(VECTORS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(VECTORS)('%s', (_name, html, expected) => {
    const sanitized = sanitizeArticleHtml(html, PAGE);
    expect(sanitized).toBe(expected);
    expectInertHtml(sanitized);
  });
});

describe('sanitizeArticleHtml against markup built to be slow', () => {
  it('keeps nothing of markup nested deeper than any real page, and answers at once', () => {
    // An imported body of 2 MB of open <div>s: parsed, it held an import worker for a minute and a half.
    const started = performance.now();
    expect(sanitizeArticleHtml(`${'<div>'.repeat(400_000)}words`, PAGE)).toBe('');
    expect(performance.now() - started).toBeLessThan(2_000);
    // Deep, but as deep as real pages go: kept whole.
    expect(sanitizeArticleHtml(`${'<div>'.repeat(100)}words`, PAGE)).toBe(
      `${'<div>'.repeat(100)}words${'</div>'.repeat(100)}`,
    );
  });
});

describe('sanitizeArticleHtml keeps ordinary content intact', () => {
  // Written in the sanitizer's own canonical form, so surviving intact means coming out unchanged.
  const ORDINARY = [
    '<h2>Heading two</h2><h3>Heading three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6>',
    '<p>Text with <strong>strong</strong>, <em>emphasis</em>, <b>bold</b>, <i>italic</i>, <u>u</u>, <s>s</s>, <mark>mark</mark>, <small>small</small>, H<sub>2</sub>O, x<sup>2</sup>, <abbr title="HyperText Markup Language">HTML</abbr>, <q cite="https://quotes.example/">a quote</q>, <cite>A Book</cite>, <kbd>Ctrl</kbd>, <var>n</var>, <samp>output</samp> &amp; <dfn>term</dfn>.</p>',
    '<ul><li>One</li><li>Two<ul><li>Nested</li></ul></li></ul><ol start="3" reversed><li value="3">Three</li></ol>',
    '<dl><dt>Term</dt><dd>Definition</dd></dl>',
    '<table><caption>Prices</caption><colgroup><col span="2" /></colgroup><thead><tr><th scope="col">Item</th><th scope="col">Price</th></tr></thead><tbody><tr><td>Tea</td><td>€4</td></tr><tr><td colspan="2" rowspan="1">Total</td></tr></tbody><tfoot><tr><td>Sum</td><td>€4</td></tr></tfoot></table>',
    '<pre><code class="language-ts">const answer = 6 * 7;\nif (a &lt; b &amp;&amp; c &gt; d) return;</code></pre>',
    '<blockquote cite="https://source.example/speech"><p>Quoted words.</p></blockquote>',
    '<figure><img src="https://images.example.org/a.jpg" srcset="https://images.example.org/a.jpg 1x, https://images.example.org/a@2x.jpg 2x" alt="A photo" width="800" height="600" /><figcaption>A caption.</figcaption></figure>',
    '<picture><source srcset="https://images.example.org/a.webp" type="image/webp" /><img src="https://images.example.org/a.jpg" alt="Fallback" /></picture>',
    '<p><a href="https://example.org/read?x=1&amp;y=2" target="_blank" rel="noopener noreferrer">A link</a> and <a href="mailto:editor@example.org" target="_blank" rel="noopener noreferrer">mail</a>.</p>',
    '<p>Updated <time datetime="2025-01-20">20 January</time>: <del>old</del> <ins>new</ins>.</p><hr /><p>Line<br />break</p>',
    '<details><summary>More</summary><p>Hidden detail.</p></details>',
    '<p lang="fr" dir="ltr">Bonjour</p><p dir="rtl" lang="ar">مرحبا</p>',
  ];

  it.each(ORDINARY)('%s', (html) => {
    expect(sanitizeArticleHtml(html, PAGE)).toBe(html);
  });
});

describe('ordinary content of a real article survives extraction', () => {
  it('keeps headings, lists, tables, code, quotes, figures and https images', async () => {
    const article = await extractArticle(
      await readFixturePage('rich-article'),
      'https://guides.example/http-caching',
    );
    const content = (article.content ?? '').replace(/\s+/g, ' ');
    for (const fragment of [
      '<h2>The headers that matter</h2>',
      '<h3>Reading a response</h3>',
      '<li><code>ETag</code> gives a version tag the browser can send back.</li>',
      '<ul> <li>It has a resolution of one second.</li> </ul>',
      '<ol start="3"> <li>Look for <kbd>no-store</kbd> first.</li>',
      '<pre><code class="language-http">HTTP/1.1 200 OK Cache-Control: public, max-age=31536000, immutable ETag: "5d8c72a5"</code></pre>',
      '<blockquote cite="https://www.rfc-editor.org/rfc/rfc9111">',
      '<th scope="col">Directive</th>',
      '<td colspan="2">Everything else combines these two ideas with a lifetime.</td>',
      '<figure> <img src="https://images.example.org/cache-flow.png" alt="Flow chart of a cache lookup" width="800" height="450" /> <figcaption>What a cache does with each request.</figcaption> </figure>',
      'H<sub>2</sub>O and E = mc<sup>2</sup>',
      '<abbr title="Content Delivery Network">CDN</abbr>',
      '<time datetime="2025-01-20">20 January 2025</time>',
      '<del>Pragma</del> <ins>Cache-Control</ins>',
    ]) {
      expect(content).toContain(fragment);
    }
    expect(article.content).toContain('Cache-Control: public, max-age=31536000, immutable\nETag: "5d8c72a5"');
    expectInertHtml(article.content ?? '');
  });
});

describe('the hostile fixture article, end to end', () => {
  it('keeps its story and none of its 60+ vectors', async () => {
    const html = await readFixturePage('xss-article');
    expect(html.match(/xss-\d+/g)?.length).toBeGreaterThanOrEqual(60);
    const article = await extractArticle(html, 'https://ferry.example/notes/night-ferry');
    const content = article.content ?? '';
    expectInertHtml(content);
    expect(content).not.toMatch(/javascript:|vbscript:|<script|<style|<iframe|<svg|<math|<form|<base|<meta/i);
    expect(content).toContain('The first mate has worked the route for nineteen years.');
    expect(content).toContain(
      '<a href="https://ferry.example/timetable" target="_blank" rel="noopener noreferrer">Timetable</a>',
    );
    expect(content).toContain('<img src="https://images.example.org/dawn.jpg" alt="Dawn" />');
    expect(article.title).toBe('Harbour notes: a week on the night ferry');
  });
});
