// A screenshot's OCR text turned into article fields: paragraphs of escaped HTML, the first line that
// reads like words as the title (shared-schema's rule, which the device's placeholder follows too).
import { escapeHtml, isTitleLike, screenshotTitle, truncateAtWord } from '@lectern/shared-schema';
import { readingTimeMinutes } from './reading-time';

export interface ScreenshotArticleFields {
  title: string;
  content: string;
  content_text: string;
  reading_time: number;
  excerpt: string | null;
  description: string | null;
}

const EXCERPT_MAX_LENGTH = 300;

export function screenshotArticleFields(ocrText: string): ScreenshotArticleFields {
  const blocks = ocrBlocks(ocrText);
  const titleLine = blocks.flat().find(isTitleLike);
  const paragraphs = titleLine ? setTitleApart(blocks, titleLine) : blocks;
  const texts = paragraphs.map(joinLines);
  const contentText = texts.join('\n');
  // The summary starts after the title: what comes before it is status bars and browser chrome.
  const afterTitle = titleLine ? texts.slice(texts.indexOf(titleLine) + 1) : texts;
  const excerpt = truncateAtWord(afterTitle.join(' ') || contentText, EXCERPT_MAX_LENGTH);
  return {
    title: screenshotTitle(titleLine),
    content: texts.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n'),
    content_text: contentText,
    reading_time: readingTimeMinutes(contentText),
    excerpt: excerpt || null,
    description: excerpt || null,
  };
}

/** Tesseract separates blocks with blank lines; lines inside a block are visual wraps of one paragraph. */
function ocrBlocks(text: string): string[][] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split('\n')
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .filter((line) => line.length > 0),
    )
    .filter((lines) => lines.length > 0);
}

/** Tesseract often puts a heading in one block with the text under it; the title gets its own paragraph. */
function setTitleApart(blocks: string[][], titleLine: string): string[][] {
  return blocks.flatMap((lines) => {
    const index = lines.indexOf(titleLine);
    if (index === -1) return [lines];
    return [lines.slice(0, index), [titleLine], lines.slice(index + 1)].filter((part) => part.length > 0);
  });
}

/**
 * Rejoins wrapped lines, mending words the layout hyphenated ("exam-" + "ple"). Built from pieces and
 * joined once, testing each line rather than the text joined so far: that text is a rope V8 flattens on
 * every test, which made a block of many lines take the square of its length.
 */
function joinLines(lines: string[]): string {
  const pieces: string[] = [];
  lines.forEach((line, index) => {
    const previous = lines[index - 1];
    if (previous !== undefined && /\p{Ll}-$/u.test(previous) && /^\p{Ll}/u.test(line)) {
      pieces[pieces.length - 1] = previous.slice(0, -1); // the last piece is the previous line itself
    } else if (index > 0) pieces.push(' ');
    pieces.push(line);
  });
  return pieces.join('');
}
