// Plain text of the sanitizer's output, for search and word counts. The sanitizer's HTML is regular
// (known tags, only &amp; &lt; &gt; &quot; escaped), so a tag-stripping pass reads it correctly and is
// far cheaper than a second DOM parse of a large article.

const BLOCK_TAGS =
  /<\/?(?:p|div|br|hr|h[1-6]|ul|ol|li|dl|dt|dd|blockquote|pre|table|thead|tbody|tfoot|tr|td|th|caption|figure|figcaption|section|article|header|footer|aside|details|summary)\b[^>]*>/gi;

export function htmlToText(html: string): string {
  const flowing = html.replace(/\s+/g, ' ');
  return decodeSanitizerEntities(flowing.replace(BLOCK_TAGS, '\n').replace(/<[^>]*>/g, ''))
    .replace(/[ \u00a0]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}

export function decodeSanitizerEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}
