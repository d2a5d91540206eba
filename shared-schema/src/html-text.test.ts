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
});
