// Spec section 5's rules, each against hand-picked inputs, and each schema pattern against its function.
import fc from 'fast-check';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { CreateHighlightBody, CreateListBody, CreateTagBody, ProfileBody, RegisterBody } from './payloads';
import {
  checkArticleUrl,
  defaultDisplayName,
  displayReadingTime,
  FIELD_ERRORS,
  FILLED_IN_PATTERN,
  HIGHLIGHT_TEXT_PATTERN,
  highlightPreviewText,
  EMAIL_PATTERN,
  isDeleteConfirmed,
  isEmailAddress,
  isFilledIn,
  isHighlightSelection,
  isScreenshotUrl,
  normalizeTagName,
  parseTagInput,
  withinTagLimits,
} from './validation';

describe('checkArticleUrl (save article)', () => {
  it('takes http and https addresses, trimmed', () => {
    expect(checkArticleUrl('  https://example.com/a ')).toEqual({ ok: true, url: 'https://example.com/a' });
    expect(checkArticleUrl('http://example.com')).toEqual({ ok: true, url: 'http://example.com/' });
  });

  it("says 'Please enter a valid URL' for text that doesn't parse", () => {
    for (const text of ['', 'example.com', 'not a url'])
      expect(checkArticleUrl(text)).toEqual({ ok: false, error: 'Please enter a valid URL' });
  });

  it("says 'Please enter a valid HTTP or HTTPS URL' for other schemes", () => {
    for (const text of ['ftp://example.com/file', 'javascript:alert(1)', 'screenshot://x'])
      expect(checkArticleUrl(text)).toEqual({ ok: false, error: 'Please enter a valid HTTP or HTTPS URL' });
  });
});

describe('parseTagInput (save article tags)', () => {
  it('trims the comma-separated pieces and drops empty ones', () => {
    expect(parseTagInput(' news, ,tech ,, ')).toEqual(['news', 'tech']);
  });

  it('sends nothing when no piece remains', () => {
    expect(parseTagInput('')).toBeUndefined();
    expect(parseTagInput(' , ,')).toBeUndefined();
  });
});

describe('withinTagLimits', () => {
  it('takes at most 50 names of at most 100 characters', () => {
    expect(withinTagLimits(Array.from({ length: 50 }, (_, i) => `t${i}`))).toBe(true);
    expect(withinTagLimits(Array.from({ length: 51 }, (_, i) => `t${i}`))).toBe(false);
    expect(withinTagLimits(['x'.repeat(100)])).toBe(true);
    expect(withinTagLimits(['x'.repeat(101)])).toBe(false);
  });
});

describe('normalizeTagName', () => {
  it('trims and folds runs of spaces', () => {
    expect(normalizeTagName('  Home   cooking\t')).toBe('Home cooking');
  });
});

describe('isFilledIn (required names: sign-up username, display name, list name, tag name)', () => {
  it('needs something besides spaces', () => {
    expect(isFilledIn('Ada')).toBe(true);
    expect(isFilledIn('  a  ')).toBe(true);
    for (const text of ['', ' ', '\t\n', '\u00a0\u2003'])
      expect(isFilledIn(text), JSON.stringify(text)).toBe(false);
  });

  it('is what the schemas of those names say', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(' ', '\t', '\u00a0', 'a', 'é') }), (text) => {
        const name = text.slice(0, 50);
        expect(new RegExp(FILLED_IN_PATTERN, 'u').test(name)).toBe(isFilledIn(name));
        expect(Value.Check(ProfileBody, { username: name })).toBe(isFilledIn(name));
        expect(Value.Check(CreateListBody, { name })).toBe(isFilledIn(name));
        expect(Value.Check(CreateTagBody, { name })).toBe(isFilledIn(name));
      }),
    );
  });
});

describe('isEmailAddress (sign-up and sign-in)', () => {
  it('takes dot-separated words, an @ and a domain with a dot', () => {
    for (const text of ['ada@example.com', 'Ada.Lovelace+notes@mail.example.co.uk', "o'brien@x-y.io"])
      expect(isEmailAddress(text), text).toBe(true);
  });

  it('refuses what is not an email address', () => {
    for (const text of [
      'ada',
      'ada@localhost',
      '@example.com',
      'ada@',
      'a..b@example.com',
      ' ada@example.com',
      'ada@example.com ',
      'ada@-x.com',
      'ada@ex ample.com',
    ])
      expect(isEmailAddress(text), text).toBe(false);
  });

  // ajv-formats' "email" (full mode), the server's rule before it lived in shared-schema, written out.
  const serverRuleBefore =
    /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

  it('refuses and takes exactly what the server did before', () => {
    const unit = fc.constantFrom('a', 'Z', '0', '.', '@', '-', '+', '_', ' ', 'é', 'K');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (text) => {
        expect(isEmailAddress(text), JSON.stringify(text)).toBe(serverRuleBefore.test(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers at once for the longest address the schema lets through to the pattern', () => {
    const text = `a@${'a'.repeat(250)}!`;
    const started = Date.now();
    expect(new RegExp(EMAIL_PATTERN, 'u').test(text)).toBe(false);
    expect(Date.now() - started).toBeLessThan(100);
  });
});

describe('sign-up schema', () => {
  const valid = { email: 'ada@example.com', password: '12345678', username: 'ada' };

  it('needs an email address, a password of at least 8 characters and a username', () => {
    expect(Value.Check(RegisterBody, valid)).toBe(true);
    expect(Value.Check(RegisterBody, { ...valid, email: 'ada' })).toBe(false);
    expect(Value.Check(RegisterBody, { ...valid, password: '1234567' })).toBe(false);
    expect(Value.Check(RegisterBody, { ...valid, username: '   ' })).toBe(false);
  });
});

describe('defaultDisplayName (profile)', () => {
  it('is the username, else the part of the email before the @', () => {
    expect(defaultDisplayName({ username: 'ada', email: 'ada.l@example.com' })).toBe('ada');
    expect(defaultDisplayName({ username: '  ', email: 'ada.l@example.com' })).toBe('ada.l');
    expect(defaultDisplayName({ username: null, email: 'ada.l@example.com' })).toBe('ada.l');
  });
});

describe('isDeleteConfirmed (delete account)', () => {
  it('needs exactly DELETE', () => {
    expect(isDeleteConfirmed('DELETE')).toBe(true);
    for (const text of ['delete', 'DELETE ', ' DELETE', 'DELET', ''])
      expect(isDeleteConfirmed(text)).toBe(false);
  });
});

describe('isHighlightSelection (highlight: at least 3 characters after trimming)', () => {
  it('counts the characters left after trimming', () => {
    expect(isHighlightSelection('abc')).toBe(true);
    expect(isHighlightSelection('  a c  ')).toBe(true);
    expect(isHighlightSelection('\n ab \t')).toBe(false);
    expect(isHighlightSelection('ab')).toBe(false);
    expect(isHighlightSelection('     ')).toBe(false);
    expect(isHighlightSelection('')).toBe(false);
  });

  it('counts an emoji as one character', () => {
    expect(isHighlightSelection('😀a')).toBe(false);
    expect(isHighlightSelection(' 😀ab ')).toBe(true);
    expect(isHighlightSelection('😀😀😀')).toBe(true);
  });

  it('is what the highlight schema says, for any text', () => {
    const pattern = new RegExp(HIGHLIGHT_TEXT_PATTERN, 'u');
    const unit = fc.oneof(
      fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u2028', '\ufeff', 'a', 'é', '😀'),
      fc.string({ unit: 'grapheme', maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 8 }), (pieces) => {
        const text = pieces.join('');
        expect(pattern.test(text), JSON.stringify(text)).toBe(isHighlightSelection(text));
        const body = { articleId: 'a', highlightedText: text, positionStart: 0, positionEnd: 1 };
        expect(Value.Check(CreateHighlightBody, body)).toBe(isHighlightSelection(text));
      }),
    );
  });

  it('the schema answers at once for a long text of spaces around two characters', () => {
    const text = `${' '.repeat(9_999)}ab${'\n'.repeat(9_999)}`;
    const started = Date.now();
    expect(new RegExp(HIGHLIGHT_TEXT_PATTERN, 'u').test(text)).toBe(false);
    expect(Date.now() - started).toBeLessThan(100);
  });
});

describe('FIELD_ERRORS', () => {
  it('words what the server answers for a field that breaks its rule', () => {
    expect(FIELD_ERRORS).toEqual({
      email: 'Please enter a valid email address',
      password: 'Please enter a password of at least 8 characters',
      username: 'Please enter a username',
      url: 'Please enter a URL',
      name: 'Please enter a name',
      highlightedText: 'A highlight needs at least 3 characters (not counting spaces at either end)',
    });
  });
});

describe('display rules', () => {
  it('cuts the highlight preview at 100 characters plus ...', () => {
    expect(highlightPreviewText('x'.repeat(100))).toBe('x'.repeat(100));
    expect(highlightPreviewText('x'.repeat(101))).toBe(`${'x'.repeat(100)}...`);
  });

  it('marks screenshot articles by their address', () => {
    expect(isScreenshotUrl('screenshot://0193')).toBe(true);
    expect(isScreenshotUrl('https://example.com/screenshot://')).toBe(false);
  });

  it('shows a missing reading time as 1', () => {
    expect(displayReadingTime(null)).toBe(1);
    expect(displayReadingTime(undefined)).toBe(1);
    expect(displayReadingTime(0)).toBe(1);
    expect(displayReadingTime(7)).toBe(7);
  });
});
