import { describe, expect, it } from 'vitest';
import { readingTimeMinutes, screenshotArticleFields } from './index';

describe('screenshotArticleFields', () => {
  it('skips status-bar noise for the title, sets the title apart and turns blocks into escaped paragraphs', () => {
    const ocr = [
      '9:41 ull 5G 87%',
      '',
      'Night ferry notes',
      'The first mate has worked the route for nine-',
      'teen years & knows every <buoy>.',
      '',
      'Departures at 23:00 "every" night.',
      '',
    ].join('\n');
    expect(screenshotArticleFields(ocr)).toEqual({
      title: 'Night ferry notes',
      content: [
        '<p>9:41 ull 5G 87%</p>',
        '<p>Night ferry notes</p>',
        '<p>The first mate has worked the route for nineteen years &amp; knows every &lt;buoy&gt;.</p>',
        '<p>Departures at 23:00 &quot;every&quot; night.</p>',
      ].join('\n'),
      content_text:
        '9:41 ull 5G 87%\nNight ferry notes\nThe first mate has worked the route for nineteen years & knows every <buoy>.\nDepartures at 23:00 "every" night.',
      reading_time: 1,
      excerpt:
        'The first mate has worked the route for nineteen years & knows every <buoy>. Departures at 23:00 "every" night.',
      description:
        'The first mate has worked the route for nineteen years & knows every <buoy>. Departures at 23:00 "every" night.',
    });
  });

  it('gives an image without readable text a plain title and an empty body', () => {
    expect(screenshotArticleFields('  \n\n 12 %\n')).toEqual({
      title: 'Screenshot',
      content: '<p>12 %</p>',
      content_text: '12 %',
      reading_time: 1,
      excerpt: '12 %',
      description: '12 %',
    });
    expect(screenshotArticleFields('')).toMatchObject({ title: 'Screenshot', content: '', excerpt: null });
  });

  it('keeps long titles and excerpts short', () => {
    const fields = screenshotArticleFields(
      `${'Remarkably long headline words '.repeat(10)}\n\n${'Body text here. '.repeat(60)}`,
    );
    expect(fields.title.length).toBeLessThanOrEqual(121);
    expect(fields.title.endsWith('…')).toBe(true);
    expect(fields.excerpt!.length).toBeLessThanOrEqual(301);
  });

  it('joins a block of 80,000 wrapped lines in linear time (it took 11 s)', () => {
    const start = performance.now();
    const fields = screenshotArticleFields(`Headline of the page\n${'word\nexam-\nple\n'.repeat(27_000)}`);
    expect(performance.now() - start).toBeLessThan(1_500);
    expect(fields.content_text.startsWith('Headline of the page\nword example word example')).toBe(true);
  });

  it('reads time from the words', () => {
    expect(screenshotArticleFields('word '.repeat(600)).reading_time).toBe(3);
  });
});

describe('readingTimeMinutes', () => {
  it('is words over 200 a minute, never below one', () => {
    expect(readingTimeMinutes('')).toBe(1);
    expect(readingTimeMinutes('one two three')).toBe(1);
    expect(readingTimeMinutes('word '.repeat(1000))).toBe(5);
    expect(readingTimeMinutes('word '.repeat(1100))).toBe(6);
  });

  it('counts unspaced Japanese and Chinese text by characters', () => {
    expect(readingTimeMinutes('東京の桜が満開'.repeat(200))).toBe(4); // 1,400 characters, counted as 700 words
  });
});
