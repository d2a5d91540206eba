import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../test/fixtures/fixture-server';
import { decodeHtml } from './charset';
import { fetchPage } from './index';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(() => fixtures.close());

describe('pages in other encodings are decoded as a browser would', () => {
  it.each([
    ['/charset/iso-8859-1', 'Café crème à Lyon : où boire le meilleur', '« le goût suffit », dit-il'],
    ['/charset/windows-1252', 'The “last” tea shop – a €4 tin of memories', 'every sale… including'],
    ['/charset/shift-jis', '東京の桜が満開に', '気象庁によると、今年の開花は平年より五日早く'],
    [
      '/charset/utf-8-bom',
      'Frühling in Zürich – „endlich“',
      'Die Musiker kommen aus Genf, Lyon und Mailand — 日本',
    ],
  ])('%s', async (path, title, phrase) => {
    const { html } = await fetchPage(fixtures.url(path), { allowedOrigins: [fixtures.origin] });
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).toContain(phrase);
    expect(html.charCodeAt(0)).not.toBe(0xfeff);
  });
});

describe('decodeHtml', () => {
  const bytes = (text: string) => Buffer.from(text, 'latin1');

  it('prefers the Content-Type charset over <meta>', () => {
    const html = bytes('<meta charset="utf-8"><p>caf\xe9</p>');
    expect(decodeHtml(html, 'text/html; charset="iso-8859-1"')).toBe('<meta charset="utf-8"><p>café</p>');
  });

  it('reads the charset from <meta http-equiv> when the header has none', () => {
    const html = bytes(
      '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>\x93hi\x94</p>',
    );
    expect(decodeHtml(html, 'text/html')).toContain('<p>“hi”</p>');
  });

  it('falls back to windows-1252 for bytes that are not UTF-8 and declare nothing', () => {
    expect(decodeHtml(bytes('<p>na\xefve \x80</p>'), undefined)).toBe('<p>naïve €</p>');
  });

  it('reads undeclared valid UTF-8 as UTF-8', () => {
    expect(decodeHtml(Buffer.from('<p>naïve €</p>'), undefined)).toBe('<p>naïve €</p>');
  });

  it('ignores a charset it does not know', () => {
    expect(decodeHtml(Buffer.from('<p>naïve</p>'), 'text/html; charset=x-klingon')).toBe('<p>naïve</p>');
  });

  it('sniffs hostile heads and Content-Types in linear time (the prescan reads 4 KB at most)', () => {
    const start = performance.now();
    const shapes: [Uint8Array, string | undefined][] = [
      [Buffer.from(`${'<meta charset'.repeat(800_000)}>`), undefined],
      [Buffer.from(`<meta ${' '.repeat(5_000_000)}charset=utf-8>`), undefined],
      [Buffer.from('<p>x</p>'), `text/html${'; charset'.repeat(2_000)}`],
      [Buffer.from('<p>x</p>'), `text/html;${' '.repeat(16_000)}charset=${'"'.repeat(8_000)}`],
    ];
    for (const [body, contentType] of shapes) decodeHtml(body, contentType);
    expect(performance.now() - start).toBeLessThan(1_500);
  });

  it('decodes 10 MB of windows-1252 punctuation on the main thread in a fraction of a second (it took 1.5 s)', () => {
    const start = performance.now();
    const text = decodeHtml(Buffer.alloc(10 * 1024 * 1024, 0x93), 'text/html; charset=windows-1252');
    expect(performance.now() - start).toBeLessThan(600);
    expect(text.slice(0, 3)).toBe('“““');
  });
});
