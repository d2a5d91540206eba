import { describe, expect, it } from 'vitest';
import { readFixturePage } from '../../test/fixtures/fixture-server';
import { extractArticle } from './index';

const NEWS_URL = 'https://herald.example/news/2025/tidal-lagoon';

describe('extractArticle', () => {
  it('reads the metadata and body of a news article', async () => {
    const article = await extractArticle(await readFixturePage('news-article.html'), NEWS_URL);
    expect(article).toMatchObject({
      title: 'Tidal power station opens on the Severn estuary',
      description:
        'The first turbines of the Severn tidal lagoon began feeding the grid on Monday after nine years of construction.',
      author: 'Amelia Hart',
      image_url: 'https://herald.example/media/lagoon-wide.jpg',
      published_date: '2025-03-17T08:30:00.000Z',
      site_name: 'The Coastal Herald',
      language: 'en-GB',
      reading_time: 2,
    });
    expect(article.content).toContain('<h2>A long road to the grid</h2>');
    expect(article.content).toContain(
      '<a href="https://herald.example/explainers/tidal-energy" target="_blank" rel="noopener noreferrer">',
    );
    expect(article.content).not.toContain('Most read');
    expect(article.content_text).toContain('sixteen turbines as the tide falls');
  });
});
