// An in-memory full-text index with the server's matching rules: a document matches when every query
// word occurs in one of its fields, the last word (of two letters or more) also as a prefix. Postings are
// flat arrays and a query adds scores into typed arrays, so a query costs microseconds per posting, where
// MiniSearch (measured first, see bench/app-data-bench.ts) took over 100 ms on short prefixes of 5,000
// articles. Words are split by searchTerms(), as on the server.
//
// Documents indexed go to small postings in plain arrays, which are frozen into typed arrays (a segment)
// every FREEZE_POSTINGS postings: the bodies of 2,000 articles of the bench library (25 KB median) took
// 66 MB of the heap in plain arrays (about 330 MB at 10,000), 21 MB frozen. Segments of about the same
// size are merged, as a binary counter counts, so there are a few of them and each posting is copied a
// few times; a merge goes a slice of a few milliseconds at a time (tidy(), called in idle moments), as
// one of a million postings at once held the page for half a second. The index can be written out as a
// snapshot (its segments merged into one, a slice at a time: snapshotSteps()), stored in parts by ranges of
// terms (partsOf) and read back with each part a segment (fromParts), so a reload takes the stored index
// as it is instead of reading and splitting every article's text again.
import { isPrefixTerm, searchTerms } from '@lectern/shared-schema';

export interface IndexedField {
  text: string;
  /** How much a word in this field counts, like the server's bm25 column weights. */
  weight: number;
}

/** Postings kept in plain arrays before they are frozen into a segment. */
export const FREEZE_POSTINGS = 100_000;
/**
 * Postings a merge of two segments makes at most while documents are indexed (tidy()): a merge holds both
 * its sources and what it makes until it is done (compact() still merges them all at once).
 */
const MAX_MERGED_POSTINGS = 2_000_000;

interface Postings {
  docs: number[];
  scores: number[];
}

/** Scores as narrow as their values allow: whole ones up to 255 in 8 bits, up to 65,535 in 16. */
type Scores = Uint8Array | Uint16Array | Float32Array;

/**
 * Postings of many terms in flat typed arrays: term i's run is [offsets[i], offsets[i + 1]). As narrow as
 * their values allow (document numbers in 16 bits below 65,536 documents, scores as Scores says), since
 * the stored index is read back whole at start: at 50,000 articles, 27 MB instead of 90.
 */
export interface FrozenPostings {
  /** Sorted. */
  terms: string[];
  offsets: Uint32Array;
  docs: Uint16Array | Uint32Array;
  scores: Scores;
}

/** The whole index as structured-clonable values: what IndexedDB stores. */
export interface TermIndexSnapshot extends FrozenPostings {
  /** Document number → id. */
  ids: string[];
  /**
   * Document number → a hash of the signature it was indexed with (signatureHash); an index stored before
   * the hashes holds the signatures themselves.
   */
  signatures: Float64Array | string[];
}

/**
 * The postings of a range of terms, as a stored index keeps them (data/search/stored-index.ts): its terms
 * one string, each followed by a space (a term holds none), as IndexedDB copies one string much faster than
 * thousands; its offsets from 0.
 */
export interface TermIndexPart {
  terms: string;
  offsets: Uint32Array;
  docs: Uint16Array | Uint32Array;
  scores: Scores;
}

/** `postings` cut by ranges of terms into parts of about `size` postings or more, each a copy of its own. */
export function* partsOf(postings: FrozenPostings, size: number): Generator<TermIndexPart> {
  const { terms, offsets, docs, scores } = postings;
  let from = 0;
  while (from < terms.length) {
    const start = offsets[from] ?? 0;
    // The first term whose run ends past `size` postings from the part's start, or the last one.
    let to = from + 1;
    while (to < terms.length && (offsets[to] ?? 0) - start < size) to += 1;
    const end = offsets[to] ?? 0;
    yield {
      terms: terms.slice(from, to).join(' ') + ' ',
      offsets: offsets.slice(from, to + 1).map((offset) => offset - start),
      docs: docs.slice(start, end),
      scores: scores.slice(start, end),
    };
    from = to;
  }
}

/** A part as frozen postings of its own, its arrays as they are (nothing copied). */
function postingsOfPart(part: TermIndexPart): FrozenPostings {
  const terms = part.terms.split(' ');
  terms.pop();
  return { terms, offsets: part.offsets, docs: part.docs, scores: part.scores };
}

/**
 * A 53-bit hash of a signature (cyrb53): what the index keeps of it, a number instead of a copy of the
 * document's fields. Two versions of a document with the same hash (one chance in 2^53) would leave the
 * older indexed until its next change.
 */
export function signatureHash(signature: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < signature.length; i += 1) {
    const c = signature.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A run of one term's postings. */
interface Run {
  docs: ArrayLike<number>;
  scores: ArrayLike<number>;
  start: number;
  end: number;
}

/** Frozen postings or plain ones, read term by term in term order. */
interface Source {
  terms: readonly string[];
  run(i: number): Run;
  /** Postings in all. */
  size: number;
  /** What its scores need (widthOf). */
  scoreWidth: number;
}

/** 0 for scores that fit 8 bits, 1 for 16, 2 for floats. */
function widthOf(scores: Scores): number {
  return scores instanceof Uint8Array ? 0 : scores instanceof Uint16Array ? 1 : 2;
}

/** What `score` needs, as widthOf says. */
function widthFor(score: number): number {
  if (!Number.isInteger(score) || score < 0 || score > 65_535) return 2;
  return score > 255 ? 1 : 0;
}

function scoresFor(width: number, length: number): Scores {
  return width === 0
    ? new Uint8Array(length)
    : width === 1
      ? new Uint16Array(length)
      : new Float32Array(length);
}

function frozenSource(postings: FrozenPostings): Source {
  const { terms, offsets } = postings;
  return {
    terms,
    run: (i) => ({ ...postings, start: offsets[i] ?? 0, end: offsets[i + 1] ?? 0 }),
    size: postings.docs.length,
    scoreWidth: widthOf(postings.scores),
  };
}

/**
 * The postings of `sources` (each of later documents than the one before) in one frozen set, term by term,
 * each document renumbered by `numberOf` (-1: left out); `documents` numbers in all.
 */
function mergePostings(sources: readonly Source[], numberOf: Int32Array, documents: number): FrozenPostings {
  return finished(mergeSteps(sources, numberOf, documents));
}

/** What a generator of steps returns, its steps run one after the other with no pause. */
function finished<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Postings a merge copies between two of its pauses (tidy()): a few milliseconds' work. */
const MERGE_SLICE_POSTINGS = 20_000;

/** mergePostings, pausing (yielding) about every MERGE_SLICE_POSTINGS postings copied. */
function* mergeSteps(
  sources: readonly Source[],
  numberOf: Int32Array,
  documents: number,
  slicePostings = MERGE_SLICE_POSTINGS,
): Generator<void, FrozenPostings> {
  let total = 0;
  for (const source of sources) total += source.size;
  const terms: string[] = [];
  const offsets: number[] = [0];
  // Made in their final width at once (a merge's temporary arrays were most of what the page collected).
  const docs = documents <= 65_536 ? new Uint16Array(total) : new Uint32Array(total);
  // Their width known at once: widening them midway copied every score so far in one step (300 ms in the
  // page for a write-out at 10,000 articles).
  const scores = scoresFor(Math.max(0, ...sources.map((source) => source.scoreWidth)), total);
  let length = 0;
  /** Postings copied when the merge last paused. */
  let sliceStart = 0;
  const at = sources.map(() => 0);
  for (;;) {
    // The least term any source is at: a handful of sources, looked at in turn.
    let term: string | undefined;
    sources.forEach((source, s) => {
      const candidate = source.terms[at[s]!];
      if (candidate !== undefined && (term === undefined || candidate < term)) term = candidate;
    });
    if (term === undefined) break;
    const before = length;
    sources.forEach((source, s) => {
      if (source.terms[at[s]!] !== term) return;
      const run = source.run(at[s]!);
      at[s] = at[s]! + 1;
      for (let k = run.start; k < run.end; k += 1) {
        const doc = numberOf[run.docs[k] ?? 0] ?? -1;
        if (doc < 0) continue;
        docs[length] = doc;
        scores[length] = run.scores[k] ?? 0;
        length += 1;
      }
    });
    if (length > before) {
      terms.push(term);
      offsets.push(length);
    }
    if (length - sliceStart >= slicePostings) {
      sliceStart = length;
      yield;
    }
  }
  return {
    terms,
    offsets: Uint32Array.from(offsets),
    // Shorter only when documents were left out.
    docs: length === total ? docs : docs.slice(0, length),
    scores: length === total ? scores : scores.slice(0, length),
  };
}

/** Index of the first of `sorted` not below `key`. */
function lowerBound(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] ?? '') < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class TermIndex {
  /** Document number → id; '' once the document is removed. */
  private ids: string[] = [];
  private readonly numbers = new Map<string, number>();
  /** Id → signatureHash of the version indexed. */
  private readonly signatures = new Map<string, number>();
  /**
   * Frozen postings (read from a snapshot, or frozen from plain ones), never changed, oldest documents
   * first; removed documents are skipped.
   */
  private segments: FrozenPostings[] = [];
  /** Postings of the documents indexed since. */
  private postings = new Map<string, Postings>();
  private sortedTerms: string[] | null = null;
  private removedSinceCompaction = 0;
  /** Postings in `postings`. */
  private plainPostings = 0;
  /** What the scores in `postings` need (widthOf). */
  private plainScoreWidth = 0;
  /** A merge of two neighbouring segments under way, a slice at a time (tidy()). */
  private merging: {
    from: readonly [FrozenPostings, FrozenPostings];
    steps: Generator<void, FrozenPostings>;
  } | null = null;

  /** `mergeSlice`: postings a merge copies between two pauses (tests make merges of many slices). */
  constructor(
    private readonly freezeAfter = FREEZE_POSTINGS,
    private readonly mergeSlice = MERGE_SLICE_POSTINGS,
  ) {}

  /** An index that answers as the one the snapshot was taken of. */
  static fromSnapshot(
    snapshot: TermIndexSnapshot,
    freezeAfter = FREEZE_POSTINGS,
    mergeSlice = MERGE_SLICE_POSTINGS,
  ): TermIndex {
    const { terms, offsets, docs, scores } = snapshot;
    return TermIndex.fromSegments(snapshot, [{ terms, offsets, docs, scores }], freezeAfter, mergeSlice);
  }

  /**
   * An index that answers as the one whose snapshot was stored in these parts (partsOf): each part one of
   * its segments as it was read, since they hold disjoint ranges of terms; nothing is copied (joined into
   * one, the parts of 10,000 articles took the page 300 ms to copy).
   */
  static fromParts(
    documents: Pick<TermIndexSnapshot, 'ids' | 'signatures'>,
    parts: readonly TermIndexPart[],
    freezeAfter = FREEZE_POSTINGS,
    mergeSlice = MERGE_SLICE_POSTINGS,
  ): TermIndex {
    return TermIndex.fromSegments(documents, parts.map(postingsOfPart), freezeAfter, mergeSlice);
  }

  private static fromSegments(
    { ids, signatures }: Pick<TermIndexSnapshot, 'ids' | 'signatures'>,
    segments: FrozenPostings[],
    freezeAfter: number,
    mergeSlice: number,
  ): TermIndex {
    const index = new TermIndex(freezeAfter, mergeSlice);
    index.ids = [...ids];
    ids.forEach((id, doc) => {
      if (id === '') return;
      index.numbers.set(id, doc);
      const signature = signatures[doc] ?? 0;
      index.signatures.set(id, typeof signature === 'string' ? signatureHash(signature) : signature);
    });
    index.segments = segments;
    return index;
  }

  get size(): number {
    return this.numbers.size;
  }

  has(id: string): boolean {
    return this.numbers.has(id);
  }

  documentIds(): string[] {
    return [...this.numbers.keys()];
  }

  /**
   * Indexes a document, replacing an earlier version. `signature` names the version: the same signature
   * again is a no-op, so a row rewritten for another reason (a flag changed) costs nothing; `fields` may
   * be a function, called only then. Answers whether anything was indexed.
   */
  set(
    id: string,
    fields: readonly IndexedField[] | (() => readonly IndexedField[]),
    signature: string,
  ): boolean {
    const hash = signatureHash(signature);
    if (this.signatures.get(id) === hash) return false;
    const indexed = typeof fields === 'function' ? fields() : fields;
    this.remove(id);
    const doc = this.ids.length;
    this.ids.push(id);
    this.numbers.set(id, doc);
    this.signatures.set(id, hash);
    const weights = new Map<string, number>();
    for (const { text, weight } of indexed) {
      for (const term of searchTerms(text)) weights.set(term, (weights.get(term) ?? 0) + weight);
    }
    for (const [term, score] of weights) {
      let list = this.postings.get(term);
      if (!list) {
        list = { docs: [], scores: [] };
        this.postings.set(term, list);
        this.sortedTerms = null;
      }
      list.docs.push(doc);
      list.scores.push(score);
      this.plainScoreWidth = Math.max(this.plainScoreWidth, widthFor(score));
    }
    this.plainPostings += weights.size;
    if (this.plainPostings >= this.freezeAfter) this.freeze();
    return true;
  }

  /** Whether the document is indexed with this signature (set would do nothing). */
  holds(id: string, signature: string): boolean {
    return this.signatures.get(id) === signatureHash(signature);
  }

  remove(id: string): void {
    const doc = this.numbers.get(id);
    if (doc === undefined) return;
    this.numbers.delete(id);
    this.signatures.delete(id);
    this.ids[doc] = '';
    this.removedSinceCompaction += 1;
    if (this.removedSinceCompaction > Math.max(1000, this.numbers.size)) this.compact();
  }

  /** Each document's number, or -1 once removed; renumbered 0..n-1 when asked. */
  private numbering(renumber: boolean): { numberOf: Int32Array; ids: string[] } {
    const numberOf = new Int32Array(this.ids.length).fill(-1);
    const ids: string[] = [];
    this.ids.forEach((id, doc) => {
      if (id === '') return;
      numberOf[doc] = renumber ? ids.length : doc;
      ids.push(id);
    });
    return { numberOf, ids: renumber ? ids : this.ids };
  }

  /**
   * The plain postings as a source, as they are now: their lists of this moment (a freeze or a compaction
   * starts new ones), read when a run is asked for.
   */
  private plainSource(): Source {
    const { postings } = this;
    this.sortedTerms ??= [...postings.keys()].sort();
    const terms = this.sortedTerms;
    return {
      terms,
      run: (i) => {
        const list = postings.get(terms[i] ?? '') ?? { docs: [], scores: [] };
        return { docs: list.docs, scores: list.scores, start: 0, end: list.docs.length };
      },
      size: this.plainPostings,
      scoreWidth: this.plainScoreWidth,
    };
  }

  private clearPlain(): void {
    this.postings = new Map();
    this.sortedTerms = null;
    this.plainPostings = 0;
    this.plainScoreWidth = 0;
  }

  /** The live postings of every segment and the plain ones in one frozen set. */
  private frozen(renumber: boolean): FrozenPostings & { ids: string[] } {
    const { numberOf, ids } = this.numbering(renumber);
    const sources = [...this.segments.map(frozenSource), this.plainSource()];
    return { ids, ...mergePostings(sources, numberOf, renumber ? ids.length : this.ids.length) };
  }

  /** The index as it is now, removed documents left out: stored, it is read back by fromSnapshot. */
  snapshot(): TermIndexSnapshot {
    return finished(this.snapshotSteps());
  }

  /**
   * snapshot() a slice at a time: the index as it is at this call, made by a generator that pauses (yields)
   * about every `mergeSlice` postings and returns it, so writing a large index out never holds the page
   * (every segment merged at once took 1.6 s at 6,000 articles). What is indexed or removed after the call
   * is not in it: the caller notes what the index had taken in at the call. The sources are taken as they
   * are now; segments are never changed, and the plain postings are read from the lists of this moment
   * (documents indexed later into them have numbers past this numbering, which leaves them out; a freeze
   * or a compaction starts new lists).
   */
  snapshotSteps(): Generator<void, TermIndexSnapshot> {
    const { numberOf, ids } = this.numbering(true);
    const signatures = Float64Array.from(ids, (id) => this.signatures.get(id) ?? 0);
    const sources = [...this.segments.map(frozenSource), this.plainSource()];
    const steps = mergeSteps(sources, numberOf, ids.length, this.mergeSlice);
    return (function* () {
      const postings = yield* steps;
      return { ids, signatures, ...postings };
    })();
  }

  /** Drops removed documents from the postings, so memory follows the live documents. */
  private compact(): void {
    const { terms, offsets, docs, scores } = this.frozen(false);
    this.segments = [{ terms, offsets, docs, scores }];
    this.merging = null;
    this.clearPlain();
    this.removedSinceCompaction = 0;
  }

  /**
   * Freezes the plain postings into a segment (one task: FREEZE_POSTINGS postings, tens of milliseconds).
   * Segments are merged later, a slice at a time (tidy()).
   */
  private freeze(): void {
    const { numberOf } = this.numbering(false);
    this.segments.push(mergePostings([this.plainSource()], numberOf, this.ids.length));
    this.clearPlain();
  }

  /**
   * The next two segments to merge: the last two while the last is as large as the one before and the two
   * together no larger than MAX_MERGED_POSTINGS, so each posting is copied a few times in all and a large
   * index is a few segments of that size.
   */
  private nextMerge(): readonly [FrozenPostings, FrozenPostings] | null {
    const last = this.segments.at(-1);
    const previous = this.segments.at(-2);
    if (!last || !previous || last.docs.length < previous.docs.length) return null;
    if (last.docs.length + previous.docs.length > MAX_MERGED_POSTINGS) return null;
    return [previous, last];
  }

  /**
   * Goes on merging segments for about `budgetMs`: a merge is many slices of a few milliseconds, so the
   * page is never held by one (one of a million postings took half a second at once). Queries meanwhile
   * read the segments as they are; a merge is put in their place once done, documents removed since its
   * start left in it (every query skips them). Answers whether merging is left to do.
   */
  tidy(budgetMs = 8): boolean {
    const deadline = performance.now() + budgetMs;
    for (;;) {
      if (!this.merging) {
        const from = this.nextMerge();
        if (!from) return false;
        const { numberOf } = this.numbering(false);
        this.merging = {
          from,
          steps: mergeSteps(from.map(frozenSource), numberOf, this.ids.length, this.mergeSlice),
        };
      }
      const step = this.merging.steps.next();
      if (step.done) {
        const [previous, last] = this.merging.from;
        this.merging = null;
        const at = this.segments.indexOf(previous);
        // Still neighbours (a compaction since would have replaced them all): the merge takes their place.
        if (at >= 0 && this.segments[at + 1] === last) this.segments.splice(at, 2, step.value);
      }
      if (performance.now() >= deadline) return this.merging !== null || this.nextMerge() !== null;
    }
  }
  private exact(term: string): Run[] {
    const runs: Run[] = [];
    for (const segment of this.segments) {
      const i = lowerBound(segment.terms, term);
      if (segment.terms[i] === term)
        runs.push({ ...segment, start: segment.offsets[i] ?? 0, end: segment.offsets[i + 1] ?? 0 });
    }
    const list = this.postings.get(term);
    if (list) runs.push({ docs: list.docs, scores: list.scores, start: 0, end: list.docs.length });
    return runs;
  }

  private withPrefix(prefix: string): Run[] {
    const runs: Run[] = [];
    for (const segment of this.segments) {
      const { terms, offsets } = segment;
      for (let i = lowerBound(terms, prefix); i < terms.length && terms[i]!.startsWith(prefix); i += 1)
        runs.push({ ...segment, start: offsets[i] ?? 0, end: offsets[i + 1] ?? 0 });
    }
    this.sortedTerms ??= [...this.postings.keys()].sort();
    const terms = this.sortedTerms;
    for (let i = lowerBound(terms, prefix); i < terms.length && terms[i]!.startsWith(prefix); i += 1) {
      const list = this.postings.get(terms[i]!);
      if (list) runs.push({ docs: list.docs, scores: list.scores, start: 0, end: list.docs.length });
    }
    return runs;
  }

  /**
   * Ids of the matching documents, best match first (ties: the most recently indexed first): the first
   * `limit` of them, picked without sorting every match (a common word matches most of the library).
   */
  search(query: string, limit = Infinity): string[] {
    const terms = searchTerms(query);
    if (terms.length === 0) return [];
    const count = this.ids.length;
    const matched = new Uint32Array(count);
    const scores = new Float64Array(count);
    for (let i = 0; i < terms.length; i += 1) {
      const term = terms[i]!;
      const runs = isPrefixTerm(term, i, terms.length) ? this.withPrefix(term) : this.exact(term);
      if (runs.length === 0) return [];
      for (const { docs, scores: weights, start, end } of runs) {
        for (let k = start; k < end; k += 1) {
          const doc = docs[k]!;
          // Counts the documents that matched every word so far; a prefix's other expansions add score.
          if (matched[doc] === i) matched[doc] = i + 1;
          else if (matched[doc] !== i + 1) continue;
          scores[doc] = (scores[doc] ?? 0) + (weights[k] ?? 0);
        }
      }
    }
    const firstIsBetter = (a: number, b: number) => (scores[b] ?? 0) - (scores[a] ?? 0) || b - a;
    const best = new BestOf(limit, firstIsBetter);
    for (let doc = 0; doc < count; doc += 1) {
      if (matched[doc] === terms.length && this.ids[doc] !== '') best.offer(doc);
    }
    return best.inOrder().map((doc) => this.ids[doc]!);
  }
}

/**
 * The best `limit` of the numbers offered, kept in a heap whose root is the worst of them: each offer costs
 * a comparison, and a logarithm more when it is kept.
 */
class BestOf {
  private readonly heap: number[] = [];

  /** `order(a, b)` < 0 when a comes before b (is better). */
  constructor(
    private readonly limit: number,
    private readonly order: (a: number, b: number) => number,
  ) {}

  offer(item: number): void {
    const { heap, order } = this;
    if (heap.length < this.limit) {
      // Up while worse than its parent: the worst stays at the root.
      let i = heap.push(item) - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (order(heap[parent]!, heap[i]!) >= 0) break;
        [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
        i = parent;
      }
      return;
    }
    if (heap.length === 0 || order(item, heap[0]!) >= 0) return;
    heap[0] = item;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && order(heap[left]!, heap[worst]!) > 0) worst = left;
      if (right < heap.length && order(heap[right]!, heap[worst]!) > 0) worst = right;
      if (worst === i) return;
      [heap[worst], heap[i]] = [heap[i]!, heap[worst]!];
      i = worst;
    }
  }

  inOrder(): number[] {
    return [...this.heap].sort(this.order);
  }
}
