import { describe, expect, it } from 'vitest';
import { metaRefreshTarget, parseRefresh } from './meta-refresh';
import { readMetaRefresh } from './article-extraction';
import { parsePage } from './page-dom';

const page = 'https://news.example/story/1';
const target = (html: string) => metaRefreshTarget(parsePage(html), page, page)?.href ?? null;
const inHead = (meta: string) => `<!doctype html><html><head>${meta}</head><body><p>Story</p></body></html>`;

describe('metaRefreshTarget', () => {
  it.each([
    ['<meta http-equiv="refresh" content="0; url=/story/2">', 'https://news.example/story/2'],
    ["<META HTTP-EQUIV='Refresh' CONTENT='1;URL=https://other.example/a'>", 'https://other.example/a'],
    ['<meta content="0;url=\'/quoted\'" http-equiv="refresh">', 'https://news.example/quoted'],
    ['<meta http-equiv=refresh content="3, /comma">', 'https://news.example/comma'],
    ['<meta http-equiv="refresh" content="0; url=http://169.254.169.254/">', 'http://169.254.169.254/'],
    ['<meta http-equiv="refresh" content="0;URL = &quot;/entity&quot;">', 'https://news.example/entity'],
  ])('follows %s', (html, expected) => {
    expect(target(inHead(html))).toBe(expected);
  });

  it('follows a refresh in the body too, as browsers do', () => {
    expect(
      target(`<html><body><p>Moved</p><meta http-equiv="refresh" content="0;url=/b"></body></html>`),
    ).toBe('https://news.example/b');
  });

  it.each([
    ['a reload timer', '<meta http-equiv="refresh" content="300">'],
    ['a slow refresh to another page', '<meta http-equiv="refresh" content="600; url=/front-page">'],
    ['a refresh to the same page', '<meta http-equiv="refresh" content="0; url=/story/1#top">'],
    [
      'a refresh inside <noscript>',
      '<noscript><meta http-equiv="refresh" content="0; url=/no-js"></noscript>',
    ],
    ['a refresh inside <template>', '<template><meta http-equiv="refresh" content="0; url=/t"></template>'],
    [
      'a refresh inside a conditional comment (CNN)',
      '<!--[if lte IE 9]><meta http-equiv="refresh" content="1;url=/2.218.0/static/unsupp.html" /><![endif]-->',
    ],
    ['a meta that is not a refresh', '<meta name="refresh" content="0; url=/elsewhere">'],
    ['a refresh to javascript:', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
    ['a refresh to data:', '<meta http-equiv="refresh" content="0;url=data:text/html,<h1>x</h1>">'],
    ['a refresh to mailto:', '<meta http-equiv="refresh" content="0;url=mailto:a@b.example">'],
    ['a refresh to about:', '<meta http-equiv="refresh" content="0;url=about:blank">'],
  ])('ignores %s', (_name, html) => {
    expect(target(inHead(html))).toBeNull();
  });

  it('lets the first readable refresh decide, as browsers do', () => {
    const twoRefreshes =
      '<meta http-equiv="refresh" content="0;url=javascript:void(0)"><meta http-equiv="refresh" content="0;url=/b">';
    expect(target(inHead(twoRefreshes))).toBeNull();
    const unreadableFirst =
      '<meta http-equiv="refresh" content="soon"><meta http-equiv="refresh" content="0;url=/b">';
    expect(target(inHead(unreadableFirst))).toBe('https://news.example/b');
  });

  it('reads the target against the page’s <base>', () => {
    const html = inHead(
      '<base href="https://cdn.example/site/"><meta http-equiv="refresh" content="0;url=next">',
    );
    expect(readMetaRefresh(html, page)).toEqual({ kind: 'refresh', url: 'https://cdn.example/site/next' });
  });
});

describe('parseRefresh', () => {
  it.each([
    ['5', { seconds: 5, url: null }],
    ['0; url=/a', { seconds: 0, url: '/a' }],
    ["0,URL='/a b'", { seconds: 0, url: '/a b' }],
    ['3 /a', { seconds: 3, url: '/a' }],
    ['.5;/a', { seconds: 0, url: '/a' }],
    ['1.5; url="x"y', { seconds: 1, url: 'x' }],
    ['0; urlish', { seconds: 0, url: 'urlish' }],
  ])('reads %j', (content, expected) => {
    expect(parseRefresh(content)).toEqual(expected);
  });

  it.each(['', 'soon', '0x; url=/a', ';0'])('refuses %j', (content) => {
    expect(parseRefresh(content)).toBeNull();
  });

  it('reads a multi-megabyte attribute in one pass', () => {
    const start = performance.now();
    parseRefresh(`0${' '.repeat(2_000_000)};${' '.repeat(2_000_000)}url=${'#'.repeat(2_000_000)}`);
    expect(performance.now() - start).toBeLessThan(500);
  });
});
