// The CPU time the machine's host took from it while a figure was measured ("steal" in Linux's
// /proc/stat): on a virtual machine sharing its cores, a frame or a request can wait on the host, not on
// the code measured. Read on Linux only; elsewhere the sampler answers nothing.
import { readFileSync } from 'node:fs';

const SAMPLE_MS = 250;

/** The steal of all cores so far, in clock ticks (USER_HZ, 100 a second on Linux). */
function stolenTicks(): number | null {
  let line: string | undefined;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  } catch {
    return null;
  }
  // cpu user nice system idle iowait irq softirq steal …
  const steal = Number(line?.split(/\s+/)[8]);
  return line?.startsWith('cpu ') && Number.isFinite(steal) ? steal : null;
}

interface StealSample {
  /** Wall-clock time (Date.now()) at the sample's end. */
  at: number;
  /** The share of one core the host took during the sample (0.25 = a quarter of a core). */
  stolenCores: number;
}

export interface StealReport {
  /** The share of one core taken on average while sampled. */
  averageCores: number;
  /** The worst sample's share. */
  worstCores: number;
  /** The share of one core taken during the sample around a moment (Date.now() time), if sampled then. */
  around(at: number): number | undefined;
}

/** Samples the host's steal every SAMPLE_MS until stopped; null where /proc/stat can't be read. */
export function startStealSampler(): { stop(): StealReport } | null {
  const first = stolenTicks();
  if (first === null) return null;
  const samples: StealSample[] = [];
  let last = { ticks: first, at: Date.now() };
  const sample = () => {
    const ticks = stolenTicks();
    const at = Date.now();
    if (ticks === null || at <= last.at) return;
    samples.push({ at, stolenCores: ((ticks - last.ticks) * 10) / (at - last.at) });
    last = { ticks, at };
  };
  const timer = setInterval(sample, SAMPLE_MS);
  const started = last.at;
  return {
    stop() {
      clearInterval(timer);
      sample();
      const elapsed = last.at - started;
      return {
        averageCores: elapsed > 0 ? ((last.ticks - first) * 10) / elapsed : 0,
        worstCores: Math.max(0, ...samples.map((entry) => entry.stolenCores)),
        around(at) {
          const index = samples.findIndex((entry) => entry.at >= at);
          const from = index > 0 ? samples[index - 1]!.at : started;
          return index >= 0 && from <= at ? samples[index]!.stolenCores : undefined;
        },
      };
    },
  };
}
