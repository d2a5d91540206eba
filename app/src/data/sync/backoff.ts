// How long a device waits before trying the server again: the sync engine after a failed run and the
// live-update stream after it dropped both follow this one rule.

const BASE_BACKOFF_MS = 1000;

/**
 * The wait after `failures` failures in a row: 1 s, 2 s, 4 s … up to `maxMs`, each spread by `random` (in
 * [0, 1)) to between half and all of it so that many devices don't retry together, and never sooner than
 * `minimumMs` (a Retry-After).
 */
export function backoffMs(failures: number, maxMs: number, random: number, minimumMs: number | null): number {
  const exponential = Math.min(maxMs, BASE_BACKOFF_MS * 2 ** (failures - 1));
  return Math.max(minimumMs ?? 0, exponential * (0.5 + random / 2));
}
