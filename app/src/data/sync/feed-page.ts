// Reads an answer holding one long array (a page of the change feed, a batch of bodies) as it streams in:
// each element is parsed on its own as soon as its last byte arrives, so an answer (a megabyte or two of
// article bodies) is never held as one string, and the text of an element is dropped once it is parsed.
// The strings made are each about one element long: short-lived and small, they go with the young
// generation's quick collections rather than piling up until a full one.
import type { Change, ChangesResponse } from '@lectern/shared-schema';
import { yieldTask } from '../offline/yield-to-ui';

/** What a page of the feed says besides its changes: where the next page starts, and whether there is one. */
export type FeedHead = Omit<ChangesResponse, 'changes'>;

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
export function createFeedSplitter(onChange: (change: Change) => void, onHead?: (head: FeedHead) => void) {
  const splitter = createArraySplitter<Change>('changes', onChange, (head) => {
    const { cursor, hasMore } = head as Partial<FeedHead>;
    if (typeof cursor === 'number' && typeof hasMore === 'boolean') onHead?.({ cursor, hasMore });
  });
  return {
    push: splitter.push,
    /** The page's cursor and hasMore, once the whole answer went through `push`. */
    end(): FeedHead {
      const { cursor, hasMore } = splitter.end() as ChangesResponse;
      return { cursor, hasMore };
    },
  };
}

/**
 * Splits a JSON object fed in pieces: every element (an object) of its array under `key` goes to
 * `onElement` parsed; the rest of the object is kept and parsed at the end, the array left empty. What came
 * before the array goes to `onHead` as soon as the array opens (the object closed after it).
 */
export function createArraySplitter<Element>(
  key: string,
  onElement: (element: Element) => void,
  onHead?: (head: unknown) => void,
) {
  // The key is the caller's constant, never the network's.
  const beforeArray = new RegExp(`${JSON.stringify(key)}\\s*:\\s*$`);
  /**
   * The element being read, as the pieces of the chunks before this one (from its first brace): joined
   * once when it ends. Each chunk is scanned alone: appending it to the text before and scanning that
   * copied the element so far again at every chunk (a long body's megabytes copied over and over).
   */
  let parts: string[] = [];
  let inElement = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let inArray = false;
  /** Everything outside the `changes` array, the array itself left empty. */
  let outside = '';

  return {
    push(chunk: string): void {
      let outsideFrom = inArray ? -1 : 0;
      /** Where the element being read begins in this chunk (0: it began before). */
      let elementFrom = 0;
      // Inside a string (most of a page: titles, addresses, bodies) only a quote or a backslash matters: the
      // scan jumps to the next of either, found by indexOf and kept until passed, never byte by byte.
      let nextQuote = -1;
      let nextBackslash = -1;
      for (let i = 0; i < chunk.length; i += 1) {
        if (inString) {
          if (escaped) {
            escaped = false;
            continue;
          }
          if (nextQuote < i) nextQuote = indexOrEnd(chunk, '"', i);
          if (nextBackslash < i) nextBackslash = indexOrEnd(chunk, '\\', i);
          i = Math.min(nextQuote, nextBackslash);
          if (i === chunk.length) break;
          if (i === nextBackslash) escaped = true;
          else inString = false;
          continue;
        }
        const c = chunk.charCodeAt(i);
        if (c === QUOTE) inString = true;
        else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
          depth += 1;
          if (depth === 2 && c === OPEN_ARRAY && !inArray) {
            const head = outside + chunk.slice(outsideFrom, i);
            if (beforeArray.test(head)) {
              outside = `${head}[`;
              inArray = true;
              outsideFrom = -1;
              // The array opens at depth 2: in the object itself, so `]}` closes both.
              onHead?.(JSON.parse(`${outside}]}`));
            }
          } else if (inArray && depth === 3 && c === OPEN_OBJECT) {
            inElement = true;
            elementFrom = i;
          }
        } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
          depth -= 1;
          if (inArray && depth === 2 && c === CLOSE_OBJECT && inElement) {
            const end = chunk.slice(elementFrom, i + 1);
            const element = parts.length === 0 ? end : parts.join('') + end;
            parts = [];
            inElement = false;
            onElement(JSON.parse(element) as Element);
          } else if (inArray && depth === 1 && c === CLOSE_ARRAY) {
            inArray = false;
            outsideFrom = i;
          }
        }
      }
      if (!inArray) outside += chunk.slice(outsideFrom);
      // Only the element being read is kept; what came before it is done with.
      if (inElement) parts.push(chunk.slice(elementFrom));
    },
    /** The rest of the object (its array empty), once the whole answer went through `push`. */
    end(): unknown {
      if (depth !== 0 || inString) throw new SyntaxError('The answer ended in the middle');
      return JSON.parse(outside);
    },
  };
}

/**
 * Characters parsed in one task: where the page fell behind the network, a read hands over all it holds
 * (megabytes of a page of cards), and parsing that at once held the page's thread for 95 ms.
 */
const PARSE_SLICE = 256 * 1024;

/** Feeds `text` to `push` PARSE_SLICE characters at a time, giving the page back between them. */
async function pushInSlices(text: string, push: (chunk: string) => void): Promise<void> {
  for (let at = 0; at < text.length; at += PARSE_SLICE) {
    if (at > 0) await yieldTask();
    push(text.slice(at, at + PARSE_SLICE));
  }
}

/**
 * Feeds the answer's text to `push` as it streams in (all at once where the body can't be streamed); with
 * `sliced`, PARSE_SLICE characters a task.
 */
async function streamText(response: Response, push: (chunk: string) => void, sliced = false): Promise<void> {
  const feed = (text: string) => (sliced ? pushInSlices(text, push) : push(text));
  if (!response.body) {
    await feed(await response.text());
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    await feed(value);
  }
}

/**
 * A page of the feed on its way: its head as soon as the first bytes of its changes are read (the server
 * writes the cursor first, so the next page can be asked for while this one is still read), then the page.
 */
export interface PendingFeedPage {
  head: Promise<FeedHead>;
  page: Promise<ChangesResponse>;
}

/** One page of the feed from the server's answer, read as it streams. */
export function readFeedPage(answer: Promise<Response>): PendingFeedPage {
  let toldHead: (head: FeedHead) => void = () => undefined;
  const head = new Promise<FeedHead>((resolve) => (toldHead = resolve));
  const page = (async () => {
    const changes: Change[] = [];
    const splitter = createFeedSplitter((change) => changes.push(change), toldHead);
    // In slices: a page of cards is megabytes of small elements (readStreamedArray's batches of bodies,
    // a few hundred long strings quick to parse, are read as they come).
    await streamText(await answer, splitter.push, true);
    const end = splitter.end();
    // An answer whose head came after its changes (or had none) tells it here.
    toldHead(end);
    return { ...end, changes };
  })();
  // The head of an answer that fails is that failure.
  const headOrFailure = Promise.race([head, page]).then(() => head);
  // Whoever awaits them gets a failure; one nobody awaits (a page given up) is no unhandled rejection.
  page.catch(() => undefined);
  headOrFailure.catch(() => undefined);
  return { head: headOrFailure, page };
}

/** An answer `{…, [key]: [{…}, …]}` read as it streams, each element of its array parsed on its own. */
export async function readStreamedArray<Answer>(
  response: Response,
  key: keyof Answer & string,
): Promise<Answer> {
  const elements: unknown[] = [];
  const splitter = createArraySplitter(key, (element) => elements.push(element));
  await streamText(response, splitter.push);
  return { ...(splitter.end() as object), [key]: elements } as Answer;
}
