import { describe, expect, it } from 'vitest';
import { metaRefreshTarget } from './meta-refresh';

const page = new URL('https://news.example/story/1');
const target = (html: string) => metaRefreshTarget(html, page)?.href ?? null;

describe('metaRefreshTarget', () => {
  it.each([
    ['<meta http-equiv="refresh" content="0; url=/story/2">', 'https://news.example/story/2'],
    ["<META HTTP-EQUIV='Refresh' CONTENT='1;URL=https://other.example/a'>", 'https://other.example/a'],
    ['<meta content="0;url=\'/quoted\'" http-equiv="refresh">', 'https://news.example/quoted'],
    ['<meta http-equiv=refresh content="3, /comma">', 'https://news.example/comma'],
    ['<meta http-equiv="refresh" content="0; url=http://169.254.169.254/">', 'http://169.254.169.254/'],
  ])('follows %s', (html, expected) => {
    expect(target(`<html><head>${html}</head><body></body></html>`)).toBe(expected);
  });

  it.each([
    ['a reload timer', '<meta http-equiv="refresh" content="300">'],
    ['a slow refresh to another page', '<meta http-equiv="refresh" content="600; url=/front-page">'],
    ['a refresh to the same page', '<meta http-equiv="refresh" content="0; url=/story/1#top">'],
    [
      'a refresh inside <noscript>',
      '<noscript><meta http-equiv="refresh" content="0; url=/no-js"></noscript>',
    ],
    ['a meta that is not a refresh', '<meta name="refresh" content="0; url=/elsewhere">'],
  ])('ignores %s', (_name, html) => {
    expect(target(`<html><head>${html}</head><body></body></html>`)).toBeNull();
  });
});
