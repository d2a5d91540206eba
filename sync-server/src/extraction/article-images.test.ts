import { describe, expect, it } from 'vitest';
import { findArticleImages, rewriteArticleImages } from './article-images';

const BODY =
  '<p>Text</p><img src="https://a.example/1.png" alt="one">' +
  '<picture><source srcset="https://a.example/2.webp" type="image/webp"><img src="https://a.example/2.jpg" srcset="https://a.example/2.jpg 1x, https://a.example/2@2x.jpg 2x"></picture>' +
  '<img srcset="https://a.example/3-small.jpg 300w, https://a.example/3-large.jpg 900w" alt="three">' +
  '<img src="https://a.example/1.png" alt="again"><img src="/api/images/x/' +
  'a'.repeat(64) +
  '.png">';

describe('article images', () => {
  it('finds each image address once, in order: src, else the last srcset candidate', () => {
    expect(findArticleImages(BODY)).toEqual([
      'https://a.example/1.png',
      'https://a.example/2.jpg',
      'https://a.example/3-large.jpg',
    ]);
  });

  it('points archived images at their copy and drops the rest, srcset and <source> included', () => {
    const rewritten = rewriteArticleImages(BODY, {
      'https://a.example/1.png': '/api/images/x/1.png',
      'https://a.example/3-large.jpg': '/api/images/x/3.jpg',
    });
    expect(rewritten).toBe(
      '<p>Text</p><img alt="one" src="/api/images/x/1.png" /><picture></picture>' +
        '<img alt="three" src="/api/images/x/3.jpg" /><img alt="again" src="/api/images/x/1.png" />' +
        `<img src="/api/images/x/${'a'.repeat(64)}.png" />`,
    );
    expect(rewritten).not.toContain('a.example');
  });
});
