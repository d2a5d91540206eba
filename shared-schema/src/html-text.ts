// An article body as plain text: what the server's full-text index and word counts read, and what the
// app's offline index reads, so both sides split words in the same places. The input is the sanitizer's
// regular HTML (known tags, only &amp; &lt; &gt; &quot; escaped), so one tag-stripping pass reads it
// correctly and is far cheaper than a DOM parse. Block tags separate words; inline tags don't.

const BLOCK_TAGS = new Set(
  `p div br hr h1 h2 h3 h4 h5 h6 ul ol li dl dt dd blockquote pre table thead tbody tfoot tr td th
   caption figure figcaption section article header footer aside main details summary address`.split(/\s+/),
);
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', amp: '&' };

/** Marks a block boundary while whitespace is collapsed; a noncharacter, which no real text contains. */
const BREAK = '\uffff';

export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  // Tags and entities go through one callback pass; whitespace is collapsed by plain passes after it,
  // because a callback per gap between words is what made this slow on long articles.
  return (
    html
      .replace(
        /<\/?([a-zA-Z][a-zA-Z0-9]*)[^>]*>|&(lt|gt|quot|amp);/g,
        (_match, tag?: string, entity?: string) => {
          if (tag) return BLOCK_TAGS.has(tag.toLowerCase()) ? BREAK : '';
          return ENTITIES[entity ?? ''] ?? '';
        },
      )
      // Every run of whitespace becomes one space. A run that already is one space is left alone: replacing
      // each gap between words (as /\s+/g does) made this pass most of the function's time.
      .replace(/ \s+|[^\S ]\s*/g, ' ')
      .replace(/ ?\uffff[\uffff ]*/g, '\n')
      .trim()
  );
}

/** Text made safe to put between tags or inside a quoted attribute. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
