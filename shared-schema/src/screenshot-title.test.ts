import { describe, expect, it } from 'vitest';
import { isTitleLike, SCREENSHOT_FALLBACK_TITLE, screenshotTitle } from './screenshot-title';

describe('screenshotTitle', () => {
  it("is 'Screenshot' before OCR has found a line (the device's placeholder)", () => {
    expect(SCREENSHOT_FALLBACK_TITLE).toBe('Screenshot');
    expect(screenshotTitle()).toBe('Screenshot');
    expect(screenshotTitle('')).toBe('Screenshot');
  });

  it('is the title line, cut at a word to 120 characters', () => {
    expect(screenshotTitle('Why gardens need frost')).toBe('Why gardens need frost');
    const long = `${'word '.repeat(30)}end`;
    const title = screenshotTitle(long);
    expect(title).toBe(`${'word '.repeat(23).trimEnd()} word…`);
    expect(title.length).toBeLessThanOrEqual(121);
  });
});

describe('isTitleLike', () => {
  it('skips status-bar lines', () => {
    expect(isTitleLike('9:41')).toBe(false);
    expect(isTitleLike('5G 87%')).toBe(false);
    expect(isTitleLike('ab')).toBe(false);
  });

  it('takes lines that read like words, in any script', () => {
    expect(isTitleLike('Headline of the page')).toBe(true);
    expect(isTitleLike('Résumé')).toBe(true);
    expect(isTitleLike('Привет мир')).toBe(true);
  });
});
