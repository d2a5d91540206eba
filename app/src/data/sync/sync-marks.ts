// User Timing marks of a sync's phases (the pull and each page of a first sync's, the cards' move, the
// bodies' download), read by the benchmarks (bench/new-device-bench.ts prints them as a timeline); cheap,
// and nothing reads them otherwise.
/** `page`: one page of a first sync's feed stored (from the page in hand to its transaction's commit). */
export type SyncPhase = 'pull' | 'page' | 'move' | 'bodies';

export function markSync(phase: SyncPhase, edge: 'start' | 'end'): void {
  globalThis.performance?.mark?.(`lectern:${phase}:${edge}`);
}
