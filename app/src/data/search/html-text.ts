// An article body as plain words, for the search index: the same pass the server runs over the same
// sanitized HTML before its full-text index sees it (sync-server/src/extraction/html-text.ts), so both
// sides split words in the same places. Block tags separate words; inline tags don't.

const BLOCK_TAGS = new Set(
  `p div br hr h1 h2 h3 h4 h5 h6 ul ol li dl dt dd blockquote pre table thead tbody tfoot tr td th
   caption figure figcaption section article header footer aside main details summary address`.split(/\s+/),
);
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', amp: '&' };

export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  return html
    .replace(
      /<\/?([a-zA-Z][a-zA-Z0-9]*)[^>]*>|&(lt|gt|quot|amp);|\s+/g,
      (_match, tag?: string, entity?: string) => {
        if (tag) return BLOCK_TAGS.has(tag.toLowerCase()) ? '\n' : '';
        return entity ? (ENTITIES[entity] ?? '') : ' ';
      },
    )
    .replace(/ *\n[\n ]*/g, '\n')
    .trim();
}
