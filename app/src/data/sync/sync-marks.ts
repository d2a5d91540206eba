// User Timing marks of a sync's phases (the pull and each page of a first sync's, the cards' move, the
// bodies' download, the search index taking them in and writing itself out), read by the benchmarks
// (bench/new-device-bench.ts prints them as a timeline); cheap, and nothing reads them otherwise.
/**
 * `page`: one page of a first sync's feed stored (from the page in hand to its transaction's commit).
 * `index`: one catch-up of the device's search index (what was written since it last looked taken in).
 * `index-save`: the search index written out to IndexedDB (its segments merged into one, then stored).
 * `index-read`: the stored search index read back (a page's first look at it).
 */
export type SyncPhase = 'pull' | 'page' | 'move' | 'bodies' | 'index' | 'index-save' | 'index-read';

export function markSync(phase: SyncPhase, edge: 'start' | 'end'): void {
  globalThis.performance?.mark?.(`lectern:${phase}:${edge}`);
}
