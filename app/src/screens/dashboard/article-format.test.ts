import { describe, expect, it } from 'vitest';
import { articleSource, countOf, readingTimeLabel } from './article-format';

describe('article facts on a card', () => {
  it('names the source by site name, else host without www, and screenshots as such', () => {
    expect(articleSource({ url: 'https://www.example.com/a', site_name: null })).toBe('example.com');
    expect(articleSource({ url: 'https://example.com/a', site_name: 'The Example' })).toBe('The Example');
    expect(articleSource({ url: 'screenshot://0193', site_name: null })).toBe('Screenshot');
  });

  it('shows a missing reading time as 1 minute', () => {
    expect(readingTimeLabel(null)).toBe('1 min read');
    expect(readingTimeLabel(0)).toBe('1 min read');
    expect(readingTimeLabel(7)).toBe('7 min read');
  });

  it('pluralises counts', () => {
    expect(countOf(1, 'article')).toBe('1 article');
    expect(countOf(2, 'change')).toBe('2 changes');
  });
});
