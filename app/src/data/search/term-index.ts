// An in-memory full-text index with the server's matching rules: a document matches when every query
// word occurs in one of its fields, the last word (of two letters or more) also as a prefix. Postings are
// flat arrays and a query adds scores into typed arrays, so a query costs microseconds per posting, where
// MiniSearch (measured first, see bench/app-data-bench.ts) took over 100 ms on short prefixes of 5,000
// articles. Words are split by searchTerms(), as on the server.
import { isPrefixTerm, searchTerms } from '@lectern/shared-schema';

export interface IndexedField {
  text: string;
  /** How much a word in this field counts, like the server's bm25 column weights. */
  weight: number;
}

interface Postings {
  docs: number[];
  scores: number[];
}

export class TermIndex {
  /** Document number → id; '' once the document is removed. */
  private readonly ids: string[] = [];
  private readonly numbers = new Map<string, number>();
  private readonly signatures = new Map<string, string>();
  private readonly postings = new Map<string, Postings>();
  private sortedTerms: string[] | null = null;
  private removedSinceCompaction = 0;

  get size(): number {
    return this.numbers.size;
  }

  has(id: string): boolean {
    return this.numbers.has(id);
  }

  /**
   * Indexes a document, replacing an earlier version. `signature` names the version: the same signature
   * again is a no-op, so a row rewritten for another reason (a flag changed) costs nothing.
   */
  set(id: string, fields: readonly IndexedField[], signature: string): void {
    if (this.signatures.get(id) === signature) return;
    this.remove(id);
    const doc = this.ids.length;
    this.ids.push(id);
    this.numbers.set(id, doc);
    this.signatures.set(id, signature);
    const weights = new Map<string, number>();
    for (const { text, weight } of fields) {
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
    }
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

  /** Drops removed documents from the postings, so memory follows the live documents. */
  private compact(): void {
    for (const [term, list] of this.postings) {
      const docs: number[] = [];
      const scores: number[] = [];
      list.docs.forEach((doc, i) => {
        if (this.ids[doc] !== '') {
          docs.push(doc);
          scores.push(list.scores[i] ?? 0);
        }
      });
      if (docs.length === 0) this.postings.delete(term);
      else this.postings.set(term, { docs, scores });
    }
    this.sortedTerms = null;
    this.removedSinceCompaction = 0;
  }

  private withPrefix(prefix: string): Postings[] {
    this.sortedTerms ??= [...this.postings.keys()].sort();
    const terms = this.sortedTerms;
    let low = 0;
    let high = terms.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((terms[middle] ?? '') < prefix) low = middle + 1;
      else high = middle;
    }
    const lists: Postings[] = [];
    for (let i = low; i < terms.length && terms[i]!.startsWith(prefix); i += 1) {
      const list = this.postings.get(terms[i]!);
      if (list) lists.push(list);
    }
    return lists;
  }

  /** Ids of the matching documents, best match first (ties: the most recently indexed first). */
  search(query: string): string[] {
    const terms = searchTerms(query);
    if (terms.length === 0) return [];
    const count = this.ids.length;
    const matched = new Uint32Array(count);
    const scores = new Float64Array(count);
    for (let i = 0; i < terms.length; i += 1) {
      const term = terms[i]!;
      const exact = this.postings.get(term);
      const lists = isPrefixTerm(term, i, terms.length) ? this.withPrefix(term) : exact ? [exact] : [];
      if (lists.length === 0) return [];
      for (const { docs, scores: weights } of lists) {
        for (let k = 0; k < docs.length; k += 1) {
          const doc = docs[k]!;
          // Counts the documents that matched every word so far; a prefix's other expansions add score.
          if (matched[doc] === i) matched[doc] = i + 1;
          else if (matched[doc] !== i + 1) continue;
          scores[doc] = (scores[doc] ?? 0) + (weights[k] ?? 0);
        }
      }
    }
    const hits: number[] = [];
    for (let doc = 0; doc < count; doc += 1) {
      if (matched[doc] === terms.length && this.ids[doc] !== '') hits.push(doc);
    }
    hits.sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || b - a);
    return hits.map((doc) => this.ids[doc]!);
  }
}
