// Titles and bylines on a corpus of pages that reproduce the <head>, JSON-LD, Open Graph and <h1> markup
// of real sites (test/fixtures/titles), each with the title a reader expects.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { extractArticleNow } from './article-extraction';
import { withoutSiteName } from './article-title';

interface Expected {
  file: string;
  url: string;
  title: string;
  /** Present when the page's author is known (null: the page names none, only dates). */
  author?: string | null;
}

const FIXTURES = new URL('../../test/fixtures/titles/', import.meta.url);
const corpus: Expected[] = JSON.parse(await readFile(new URL('expected-titles.json', FIXTURES), 'utf8'));
const normalized = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

async function extracted(file: string, url: string) {
  return extractArticleNow(await readFile(new URL(file, FIXTURES), 'utf8'), url);
}

describe('article titles on real-world page structures', () => {
  it('picks the title a reader expects on at least 95% of the corpus', async () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    const misses: string[] = [];
    for (const page of corpus) {
      const { title } = await extracted(page.file, page.url);
      if (normalized(title) !== normalized(page.title))
        misses.push(`${page.file}: "${title}" ≠ "${page.title}"`);
    }
    const score = (corpus.length - misses.length) / corpus.length;
    console.log(
      `titles: ${corpus.length - misses.length}/${corpus.length} exact (${(score * 100).toFixed(1)}%)` +
        misses.map((miss) => `\n  ${miss}`).join(''),
    );
    expect(score).toBeGreaterThanOrEqual(0.95);
  });

  it.each([
    ['wikipedia-list.html', 'List of films featuring time loops'],
    ['wikipedia-mozilla.html', 'Mozilla'],
    ['bbc.html', "Obama admits US gun laws are his 'biggest frustration'"],
    ['wordpress-yoast.html', 'Hello World: My First Post'],
    ['wordpress-plain.html', 'Making sourdough at home'],
    ['guardian-review.html', 'Dune: Part Two review – a stunning sequel'],
    ['personal-dash-in-title.html', 'The Good, the Bad and the Ugly - Remastered'],
  ])('%s is titled exactly "%s"', async (file, title) => {
    const page = corpus.find((entry) => entry.file === file)!;
    expect((await extracted(file, page.url)).title).toBe(title);
  });

  it('keeps dates out of the byline', async () => {
    for (const page of corpus.filter((entry) => 'author' in entry)) {
      expect((await extracted(page.file, page.url)).author, page.file).toBe(page.author);
    }
    for (const file of ['guardian.html', 'bbc-sport.html', 'cnn.html', 'reuters.html', 'lemonde.html']) {
      const page = corpus.find((entry) => entry.file === file)!;
      const { author } = await extracted(file, page.url);
      expect(author ?? '', file).not.toMatch(/\d|updated|published|ago/i);
    }
  });
});

describe('withoutSiteName', () => {
  it.each([
    ['Mozilla - Wikipedia', ['wikipedia'], 'Mozilla'],
    ['Minister resigns | Politics | The Guardian', ['theguardian'], 'Minister resigns'],
    ['GitHub - owner/repo: what it does', ['github'], 'owner/repo: what it does'],
    ['A long enough title here – My website', [], 'A long enough title here'],
    ['Short one – My website', [], 'Short one – My website'],
    ['Kernel news [LWN.net]', ['lwn'], 'Kernel news'],
    ['Kartenwerk: Radwege in Ihrer Nähe', ['kartenwerk'], 'Kartenwerk: Radwege in Ihrer Nähe'],
  ])('%s → %s', (title, siteNames, expected) => {
    expect(withoutSiteName(title, siteNames)).toBe(expected);
  });

  it('reads a title of separators in linear time', () => {
    const start = performance.now();
    withoutSiteName(' - a'.repeat(100_000), ['a']);
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});
