// Highlights as Markdown, one file per article in a zip, ready for Obsidian or Logseq: front matter with the
// article's title, author, URL, saved date and tags; each highlight a quote linking back to the reading view.
import { Zip, ZipDeflate } from 'fflate';
import { PassThrough, type Readable } from 'node:stream';
import type { Queryable } from '../../db/connection';
import {
  exportArticles,
  highlightsOf,
  tagNamesOf,
  type ExportArticle,
  type ExportHighlight,
} from './library-rows';

/** A YAML scalar that is always read back as the same string (JSON strings are valid YAML). */
function yamlString(value: string): string {
  return JSON.stringify(value);
}

function quote(text: string): string {
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n');
}

export function articleMarkdown(
  article: ExportArticle,
  highlights: ExportHighlight[],
  publicUrl: string,
): string {
  const readingView = `${publicUrl}/article/${article.id}`;
  const tags = tagNamesOf(article);
  const frontMatter = [
    '---',
    `title: ${yamlString(article.title)}`,
    ...(article.author ? [`author: ${yamlString(article.author)}`] : []),
    `url: ${yamlString(article.url)}`,
    `saved: ${article.created_at.slice(0, 10)}`,
    tags.length > 0 ? `tags:\n${tags.map((tag) => `  - ${yamlString(tag)}`).join('\n')}` : 'tags: []',
    `lectern: ${yamlString(readingView)}`,
    '---',
  ];
  const body = highlights.map(
    (highlight) =>
      `${quote(highlight.highlighted_text)}\n\n` +
      `[Open in Lectern](${readingView}) · ${highlight.created_at.slice(0, 10)}`,
  );
  const heading = `# ${article.title.replace(/\s+/g, ' ').trim()}`;
  return `${frontMatter.join('\n')}\n\n${heading}\n\n${body.join('\n\n')}\n`;
}

/** `A title: with / odd chars` → `A title with odd chars`, safe as a file name on every system. */
function fileStem(title: string): string {
  const stem = title
    .normalize('NFC')
    // Characters some file system or note app refuses in a name, and control characters.
    .replace(/[\\/:*?"<>|#^[\]]/g, ' ')
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .trim();
  return stem === '' ? 'Untitled' : stem;
}

/** The zip, streamed while it is written: one article's highlights in memory at a time. */
export function highlightsMarkdownZip(db: Queryable, userId: string, publicUrl: string): Readable {
  const output = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      output.destroy(error);
      return;
    }
    output.write(chunk);
    if (final) output.end();
  });
  const usedNames = new Set<string>();
  const encoder = new TextEncoder();
  const writeFiles = async () => {
    let written = 0;
    for await (const article of exportArticles(db, userId, { highlightedOnly: true })) {
      let name = fileStem(article.title);
      if (usedNames.has(name.toLowerCase())) name = `${name} (${article.id.slice(0, 8)})`;
      usedNames.add(name.toLowerCase());
      const file = new ZipDeflate(`${name}.md`, { level: 6 });
      zip.add(file);
      const markdown = articleMarkdown(article, await highlightsOf(db, userId, article.id), publicUrl);
      file.push(encoder.encode(markdown), true);
      // Let other requests in between batches: a library of thousands of articles is many small files.
      written += 1;
      if (written % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    zip.end();
  };
  writeFiles().catch((error: unknown) => output.destroy(error as Error));
  return output;
}
