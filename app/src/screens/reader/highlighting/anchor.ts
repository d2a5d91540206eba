// Turning a selection into a stored highlight, and finding a stored highlight in the body again. Finding
// matches the text with whitespace collapsed (the server's HTML and the browser's may space blocks
// differently); when the text occurs more than once, the stored context and position pick the occurrence.
import { HIGHLIGHT_CONTEXT_LENGTH, isHighlightSelection } from '@lectern/shared-schema';
import { offsetsOfRange, type TextModel } from './text-model';

/** What a new highlight stores besides its article and colour. */
export interface HighlightDraft {
  text: string;
  contextBefore: string;
  contextAfter: string;
  start: number;
  end: number;
}

/** The stored fields finding needs (a Highlight's, renamed). */
export interface HighlightAnchor {
  text: string;
  contextBefore: string;
  contextAfter: string;
  positionStart: number;
}

export interface TextRange {
  start: number;
  end: number;
}

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

/** The selection as a highlight: trimmed of surrounding space; null when under the minimum length. */
export function describeSelection(model: TextModel, range: Range): HighlightDraft | null {
  const offsets = offsetsOfRange(model, range);
  if (!offsets) return null;
  let { start, end } = offsets;
  while (start < end && isSpace(model.text[start])) start += 1;
  while (end > start && isSpace(model.text[end - 1])) end -= 1;
  const text = model.text.slice(start, end);
  if (!isHighlightSelection(text)) return null;
  return {
    text,
    contextBefore: model.text.slice(Math.max(0, start - HIGHLIGHT_CONTEXT_LENGTH), start),
    contextAfter: model.text.slice(end, end + HIGHLIGHT_CONTEXT_LENGTH),
    start,
    end,
  };
}

interface CollapsedText {
  text: string;
  /** rawIndex[i] is where the i-th character of `text` sits in the original string. */
  rawIndex: number[];
}

/** Every run of whitespace as one space. */
function collapseSpace(raw: string): CollapsedText {
  let text = '';
  const rawIndex: number[] = [];
  for (let i = 0; i < raw.length; i += 1) {
    const char = raw[i]!;
    if (isSpace(char)) {
      if (text.endsWith(' ')) continue;
      text += ' ';
    } else {
      text += char;
    }
    rawIndex.push(i);
  }
  return { text, rawIndex };
}

const collapsed = (raw: string) => raw.replace(/\s+/g, ' ');

function commonSuffixLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n += 1;
  return n;
}

function commonPrefixLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
}

/**
 * Where a stored highlight sits in the body now, or null when its text is no longer there. Among
 * several occurrences, the one whose surroundings agree most with the stored context wins; equal
 * agreement goes to the one nearest the stored position.
 */
export function locateHighlight(model: TextModel, anchor: HighlightAnchor): TextRange | null {
  const needle = collapsed(anchor.text).trim();
  if (needle.length === 0) return null;
  const haystack = collapseSpace(model.text);
  const before = collapsed(anchor.contextBefore).trimEnd();
  const after = collapsed(anchor.contextAfter).trimStart();

  let best: { range: TextRange; agreement: number; distance: number } | null = null;
  for (let at = haystack.text.indexOf(needle); at >= 0; at = haystack.text.indexOf(needle, at + 1)) {
    const range = {
      start: haystack.rawIndex[at]!,
      end: haystack.rawIndex[at + needle.length - 1]! + 1,
    };
    const agreement =
      commonSuffixLength(haystack.text.slice(Math.max(0, at - before.length - 1), at).trimEnd(), before) +
      commonPrefixLength(
        haystack.text.slice(at + needle.length, at + needle.length + after.length + 1).trimStart(),
        after,
      );
    const distance = Math.abs(range.start - anchor.positionStart);
    if (!best || agreement > best.agreement || (agreement === best.agreement && distance < best.distance)) {
      best = { range, agreement, distance };
    }
  }
  return best?.range ?? null;
}
