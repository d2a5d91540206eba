// A screenshot article's title, alike on the server (after OCR) and on the device (before the upload,
// when there is no text yet): the first line that reads like words, or 'Screenshot'.
import { truncateAtWord } from './text-fields';

export const SCREENSHOT_FALLBACK_TITLE = 'Screenshot';
export const SCREENSHOT_TITLE_MAX_LENGTH = 120;

/**
 * A line that reads like words: at least 3 letters, mostly letters, and two words or one of 5 letters.
 * Status-bar lines such as "9:41" or "5G 87%" are not.
 */
export function isTitleLike(line: string): boolean {
  const letters = line.match(/\p{L}/gu)?.length ?? 0;
  const visible = line.replace(/\s/g, '').length;
  const words = line.match(/\p{L}{2,}/gu)?.length ?? 0;
  return letters >= 3 && words >= 1 && letters / visible >= 0.6 && (words >= 2 || letters >= 5);
}

/** The title for a screenshot whose first title-like line is `titleLine` (none before OCR has run). */
export function screenshotTitle(titleLine?: string): string {
  return titleLine ? truncateAtWord(titleLine, SCREENSHOT_TITLE_MAX_LENGTH) : SCREENSHOT_FALLBACK_TITLE;
}
