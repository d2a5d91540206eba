import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-text';

describe('htmlToText', () => {
  it('keeps words of separate blocks apart and inline markup joined', () => {
    expect(htmlToText('<h1>Title</h1><p>One <b>bo</b>ld<br>two</p><ul><li>a</li><li>b</li></ul>')).toBe(
      'Title\nOne bold\ntwo\na\nb',
    );
  });

  it("decodes the four entities the server's sanitizer writes", () => {
    expect(htmlToText('<p>fish &amp; chips &lt;3 &quot;ok&quot; &gt;</p>')).toBe('fish & chips <3 "ok" >');
  });

  it('answers an empty string for no content', () => {
    expect(htmlToText(null)).toBe('');
  });

  it('collapses each run of whitespace to one space, as replacing every run did', () => {
    // The function before it left single spaces alone: every gap between words replaced by a space.
    const replacingEveryRun = (html: string) =>
      html
        .replace(/<\/?([a-zA-Z][a-zA-Z0-9]*)[^>]*>/g, (_match, tag: string) =>
          ['p', 'li', 'br'].includes(tag.toLowerCase()) ? '\uffff' : '',
        )
        .replace(/\s+/g, ' ')
        .replace(/ ?\uffff[\uffff ]*/g, '\n')
        .trim();
    const pieces = fc.constantFrom(
      ...[' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\u3000', '\u2028', 'a', 'word'],
      ...['<p>', '</p>', '<li>', '<br>', '<b>', '</em>'],
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const html = parts.join('');
        expect(htmlToText(html)).toBe(replacingEveryRun(html));
      }),
      { numRuns: 3000 },
    );
  });
});
