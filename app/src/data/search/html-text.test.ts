import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-text';

describe('htmlToText', () => {
  it('keeps words of separate blocks apart and inline markup joined', () => {
    expect(htmlToText('<h1>Title</h1><p>One <b>bo</b>ld<br>two</p><ul><li>a</li><li>b</li></ul>')).toBe(
      'Title One bold two a b',
    );
  });

  it('drops scripts, styles and comments and decodes entities', () => {
    expect(
      htmlToText(
        '<style>p{}</style><p>caf&eacute; &amp; t&#233;a &#x2014; ok<!-- hidden --></p><script>x()</script>',
      ),
    ).toBe('caf&eacute; & téa — ok');
  });

  it('answers an empty string for no content', () => {
    expect(htmlToText(null)).toBe('');
  });
});
