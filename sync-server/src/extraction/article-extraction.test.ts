import { describe, expect, it } from 'vitest';
import { readFixturePage } from '../../test/fixtures/fixture-server';
import { extractArticle } from './index';

const extract = async (page: string, url: string) => extractArticle(await readFixturePage(page), url);

describe('extractArticle', () => {
  it('reads the metadata and body of a news article', async () => {
    const article = await extract('news-article.html', 'https://herald.example/news/2025/tidal-lagoon');
    expect({ ...article, content: null, content_text: null }).toEqual({
      title: 'Tidal power station opens on the Severn estuary',
      description:
        'The first turbines of the Severn tidal lagoon began feeding the grid on Monday after nine years of construction.',
      author: 'Amelia Hart',
      image_url: 'https://herald.example/media/lagoon-wide.jpg',
      published_date: '2025-03-17T08:30:00.000Z',
      site_name: 'The Coastal Herald',
      language: 'en-GB',
      excerpt:
        'The first turbines of the Severn tidal lagoon began feeding the grid on Monday after nine years of construction.',
      content: null,
      content_text: null,
      reading_time: 2,
    });
    expect(article.content).toContain('<h2>A long road to the grid</h2>');
    expect(article.content).toContain(
      '<img src="https://herald.example/media/lagoon-wide.jpg" alt="The lagoon wall at low tide" width="1200" height="675" />',
    );
    expect(article.content).toContain(
      '<a href="https://herald.example/explainers/tidal-energy" target="_blank" rel="noopener noreferrer">',
    );
    expect(article.content).not.toContain('Most read');
    expect(article.content).not.toContain('All rights reserved');
    expect(article.content_text).toContain(
      'The lagoon uses a nine-kilometre sea wall to trap water at high tide and release it through sixteen turbines as the tide falls.',
    );
    expect(article.content_text).toContain('\nA long road to the grid\n');
  });

  it('resolves lazy images: data-src, data-srcset, srcset alone, <noscript> copies and <picture> sources', async () => {
    const article = await extract('blog-lazy-images.html', 'https://workbench.example/2024/06/radio/');
    const content = article.content ?? '';
    expect(content).toContain(
      '<img src="https://workbench.example/images/radio-front.jpg" alt="The radio before restoration" />',
    );
    expect(content).toContain(
      '<img srcset="https://workbench.example/images/chassis-800.jpg 800w, https://workbench.example/images/chassis-1600.jpg 1600w" src="https://workbench.example/images/chassis-800.jpg" alt="The chassis with new capacitors" />',
    );
    expect(content).toContain(
      '<img src="https://workbench.example/images/dial-cord.jpg" alt="The restrung dial cord" />',
    );
    expect(content).toContain(
      '<source srcset="https://workbench.example/images/finished.webp 1x, https://workbench.example/images/finished@2x.webp 2x" type="image/webp" />',
    );
    expect(content).toContain('src="https://workbench.example/images/finished@2x.jpg"');
    expect(content).not.toMatch(/data:|placeholder\.gif|spinner\.svg|noscript/);
    expect(article).toMatchObject({
      title: 'Restoring a 1970s field radio',
      author: 'Tomás Lindqvist',
      image_url: 'https://workbench.example/images/radio-front.jpg',
      published_date: '2024-06-02T16:45:00.000Z',
      site_name: 'Workbench Notes',
      language: 'en',
    });
  });

  it('takes headline, authors, date, image, publisher and language from JSON-LD, skipping broken blocks', async () => {
    const article = await extract('json-ld-article.html', 'https://orbit.example/2024/11/night-sky');
    expect({ ...article, content: null, content_text: null, excerpt: null }).toEqual({
      title: 'Why the night sky is getting brighter',
      description: 'Satellite constellations and LED streetlights are erasing the stars, astronomers warn.',
      author: 'Dr. Lena Ortiz, Sam Okafor',
      image_url: 'https://cdn.orbit.example/night-sky.jpg',
      published_date: '2024-11-05T14:00:00.000Z',
      site_name: 'Orbit Weekly',
      language: 'en-US',
      excerpt: null,
      content: null,
      content_text: null,
      reading_time: 1,
    });
    expect(article.content).toContain('The main cause is the switch from orange sodium lamps');
  });

  it('keeps the metadata of a page that is not an article, with no content and the description as text', async () => {
    const article = await extract('not-readerable.html', 'https://kartenwerk.example/karte');
    expect(article).toEqual({
      title: 'Kartenwerk: Radwege in Ihrer Nähe',
      description: 'Eine interaktive Karte aller Radwege in Deutschland, mit Höhenprofilen und Routenplaner.',
      author: null,
      image_url: 'https://kartenwerk.example/og/karte.png',
      published_date: null,
      site_name: null,
      language: 'de',
      excerpt: 'Eine interaktive Karte aller Radwege in Deutschland, mit Höhenprofilen und Routenplaner.',
      content: null,
      content_text:
        'Eine interaktive Karte aller Radwege in Deutschland, mit Höhenprofilen und Routenplaner.',
      reading_time: 1,
    });
  });

  it('falls back to the <title> and then to the host for the title', async () => {
    const titled = await extractArticle(
      '<html><head><title>Just a title</title></head><body></body></html>',
      'https://a.example/x',
    );
    expect(titled.title).toBe('Just a title');
    const bare = await extractArticle('<p>Nothing to see</p>', 'https://bare.example:8443/x');
    expect(bare).toMatchObject({
      title: 'bare.example:8443',
      content: null,
      content_text: '',
      reading_time: 1,
    });
  });

  it('counts reading time from the words of the article', async () => {
    const paragraph = `<p>${'Tides are predictable decades ahead of time. '.repeat(40)}</p>`;
    const html = `<html><body><article><h1>Long</h1>${paragraph.repeat(5)}</article></body></html>`;
    const article = await extractArticle(html, 'https://long.example/');
    expect(article.reading_time).toBe(7); // 1,400 words at 200 a minute
  });
});
