import { describe, expect, it } from 'vitest';
import { isTrackingParameter, normalizeArticleUrl } from './article-address';

const same = (a: string, b: string) => expect(normalizeArticleUrl(a)).toBe(normalizeArticleUrl(b));
const differ = (a: string, b: string) => expect(normalizeArticleUrl(a)).not.toBe(normalizeArticleUrl(b));

describe('normalizeArticleUrl: the same address', () => {
  it('ignores the case of the scheme and the host, never of the path', () => {
    same('HTTPS://Example.COM/Post', 'https://example.com/Post');
    differ('https://example.com/Post', 'https://example.com/post');
    expect(normalizeArticleUrl('HTTP://WWW.Example.com/a')).toBe('http://www.example.com/a');
  });

  it('drops a default port and keeps any other', () => {
    same('https://example.com:443/a', 'https://example.com/a');
    same('http://example.com:80/a', 'http://example.com/a');
    differ('http://example.com:8080/a', 'http://example.com/a');
    differ('https://example.com:80/a', 'https://example.com/a');
  });

  it('drops the fragment', () => {
    expect(normalizeArticleUrl('https://example.com/a#comments')).toBe('https://example.com/a');
    same('https://example.com/a?x=1#top', 'https://example.com/a?x=1');
    same('https://example.com/a#', 'https://example.com/a');
  });

  it("keeps a fragment that is a hash-routed app's route (#/ or #!), so two of its pages stay two", () => {
    differ('https://x.example/#/post/1', 'https://x.example/#/post/2');
    differ('https://x.example/#!/post/1', 'https://x.example/#!/post/2');
    differ('https://x.example/#!post-1', 'https://x.example/#!post-2');
    differ('https://x.example/#/post/1', 'https://x.example/');
    expect(normalizeArticleUrl('https://X.example/?utm_source=a#/post/1')).toBe('https://x.example/#/post/1');
    same('https://x.example/app/#/post/1', 'https://x.example/app#/post/1');
    same('https://x.example/a#section-2', 'https://x.example/a');
  });

  it('drops utm_* and the usual click ids, whatever their case', () => {
    expect(
      normalizeArticleUrl(
        'https://example.com/a?utm_source=tw&id=7&UTM_Medium=social&fbclid=xyz&gclid=1&mc_cid=2&mc_eid=3&igshid=4&ref_src=twsrc&msclkid=5',
      ),
    ).toBe('https://example.com/a?id=7');
    same('https://example.com/a?utm_campaign=spring', 'https://example.com/a');
    same('https://example.com/a?_hsenc=x&_hsmi=y&pk_campaign=z&mtm_source=w', 'https://example.com/a');
  });

  it('keeps the other query parameters in their order, exactly as written', () => {
    expect(normalizeArticleUrl('https://example.com/search?q=a+b&page=2&utm_source=x')).toBe(
      'https://example.com/search?q=a+b&page=2',
    );
    differ('https://example.com/a?x=1&y=2', 'https://example.com/a?y=2&x=1');
    differ('https://example.com/watch?v=1', 'https://example.com/watch?v=2');
    differ('https://example.com/a?ref=1', 'https://example.com/a');
  });

  it('drops an empty query and empty pieces', () => {
    same('https://example.com/a?', 'https://example.com/a');
    same('https://example.com/a?&&x=1&', 'https://example.com/a?x=1');
  });

  it('ignores a trailing slash on the path, and treats the bare host as /', () => {
    same('https://example.com/blog/post/', 'https://example.com/blog/post');
    same('https://example.com/blog/post///', 'https://example.com/blog/post');
    same('https://example.com', 'https://example.com/');
    same('https://example.com/?utm_source=x', 'https://example.com');
    same('https://example.com/a/?x=1', 'https://example.com/a?x=1');
  });

  it('ignores surrounding space, credentials and a trailing dot on the host', () => {
    same('  https://example.com/a  ', 'https://example.com/a');
    same('https://user:pw@example.com/a', 'https://example.com/a');
    same('https://example.com./a', 'https://example.com/a');
  });

  it('keeps http and https apart, and different hosts apart', () => {
    differ('http://example.com/a', 'https://example.com/a');
    differ('https://www.example.com/a', 'https://example.com/a');
  });

  it('answers anything that is not an http(s) URL trimmed and otherwise unchanged', () => {
    expect(normalizeArticleUrl('screenshot://1234')).toBe('screenshot://1234');
    expect(normalizeArticleUrl(' not a url ')).toBe('not a url');
    expect(normalizeArticleUrl('mailto:a@b.c')).toBe('mailto:a@b.c');
  });

  it('is idempotent', () => {
    for (const url of [
      'HTTPS://Example.com:443/a/b/?utm_source=x&k=v#f',
      'http://example.com',
      'https://example.com/%7Euser/?q=%20x',
    ]) {
      expect(normalizeArticleUrl(normalizeArticleUrl(url))).toBe(normalizeArticleUrl(url));
    }
  });

  it('stays fast on a long path of slashes and many parameters', () => {
    const started = Date.now();
    normalizeArticleUrl(`https://example.com/${'/'.repeat(100_000)}x`);
    normalizeArticleUrl(`https://example.com/a?${'utm_a=1&'.repeat(20_000)}`);
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('isTrackingParameter', () => {
  it('knows the families and leaves ordinary names alone', () => {
    for (const name of ['utm_source', 'UTM_TERM', 'fbclid', 'gclid', 'mc_cid', 'igshid', 'ref_src'])
      expect(isTrackingParameter(name)).toBe(true);
    for (const name of ['id', 'q', 'page', 'ref', 'source', 'utm'])
      expect(isTrackingParameter(name)).toBe(false);
  });
});
