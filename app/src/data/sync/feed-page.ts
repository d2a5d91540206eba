// Reads one page of the change feed as it streams in: each change is parsed on its own as soon as its last
// byte arrives, so a page (up to about a megabyte of article bodies) is never held as one string, and the
// text of a change is dropped once it is parsed.
import type { Change, ChangesResponse } from '@lectern/shared-schema';

const QUOTE = 0x22;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Where `character` is next in `text` from `from`, or the text's length. */
function indexOrEnd(text: string, character: string, from: number): number {
  const at = text.indexOf(character, from);
  return at === -1 ? text.length : at;
}

/**
 * Splits `{"cursor":…,"hasMore":…,"changes":[{…},{…}]}` fed in pieces: every element of `changes` goes to
 * `onChange` parsed, the rest of the object (a few dozen bytes) is kept and parsed at the end.
 */
export function createFeedSplitter(onChange: (change: Change) => void) {
  /** Text still needed: the change being read (from its first brace), or nothing. */
  let text = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let inChanges = false;
  let changeStart = -1;
  /** Everything outside the `changes` array, the array itself left empty. */
  let outside = '';

  return {
    push(chunk: string): void {
      const scanFrom = text.length;
      text += chunk;
      let outsideFrom = inChanges ? -1 : scanFrom;
      // Inside a string (most of a page: titles, addresses, bodies) only a quote or a backslash matters: the
      // scan jumps to the next of either, found by indexOf and kept until passed, never byte by byte.
      let nextQuote = -1;
      let nextBackslash = -1;
      for (let i = scanFrom; i < text.length; i += 1) {
        if (inString) {
          if (escaped) {
            escaped = false;
            continue;
          }
          if (nextQuote < i) nextQuote = indexOrEnd(text, '"', i);
          if (nextBackslash < i) nextBackslash = indexOrEnd(text, '\\', i);
          i = Math.min(nextQuote, nextBackslash);
          if (i === text.length) break;
          if (i === nextBackslash) escaped = true;
          else inString = false;
          continue;
        }
        const c = text.charCodeAt(i);
        if (c === QUOTE) inString = true;
        else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
          depth += 1;
          if (depth === 2 && c === OPEN_ARRAY && !inChanges) {
            const head = outside + text.slice(outsideFrom, i);
            if (/"changes"\s*:\s*$/.test(head)) {
              outside = `${head}[`;
              inChanges = true;
              outsideFrom = -1;
            }
          } else if (inChanges && depth === 3 && c === OPEN_OBJECT) changeStart = i;
        } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
          depth -= 1;
          if (inChanges && depth === 2 && c === CLOSE_OBJECT && changeStart >= 0) {
            onChange(JSON.parse(text.slice(changeStart, i + 1)) as Change);
            changeStart = -1;
          } else if (inChanges && depth === 1 && c === CLOSE_ARRAY) {
            inChanges = false;
            outsideFrom = i;
          }
        }
      }
      if (!inChanges) outside += text.slice(outsideFrom);
      // Only the change being read is kept (its start moves to 0); what came before it is done with.
      text = changeStart >= 0 ? text.slice(changeStart) : '';
      if (changeStart >= 0) changeStart = 0;
    },
    /** The page's cursor and hasMore, once the whole answer went through `push`. */
    end(): Omit<ChangesResponse, 'changes'> {
      if (depth !== 0 || inString) throw new SyntaxError('The change feed answer ended in the middle');
      const { cursor, hasMore } = JSON.parse(outside) as ChangesResponse;
      return { cursor, hasMore };
    },
  };
}

/** One page of the feed from the server's answer, read as it streams. */
export async function readFeedPage(response: Response): Promise<ChangesResponse> {
  const changes: Change[] = [];
  const splitter = createFeedSplitter((change) => changes.push(change));
  if (!response.body) splitter.push(await response.text());
  else {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      splitter.push(value);
    }
  }
  return { ...splitter.end(), changes };
}
