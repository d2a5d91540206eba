// Runs the real server as its own process, so benchmarks measure it alone (its RSS included).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freeLocalPort } from '../../sync-server/src/testing/listen-locally';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningProcess {
  url: string;
  child: ChildProcess;
  rssMb(): number;
  /** The highest RSS the process has had since it started or since resetPeakRss (VmHWM). */
  peakRssMb(): number;
  /** CPU seconds (user + system) the process has used so far: what a request costs, whatever else runs. */
  cpuSeconds(): number;
  /** Starts peakRssMb over from the RSS now (Linux: clear_refs 5), so code loading doesn't count. */
  resetPeakRss(): void;
  stop(): Promise<void>;
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      const answer = await fetch(url);
      if (answer.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

function statusMb(child: ChildProcess, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Starts `node --import tsx <script>` with the environment given, and waits until `healthPath` answers. */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  healthPath = '/api/health',
): Promise<RunningProcess> {
  const port = await freeLocalPort();
  // BENCH_CPU_PROF_DIR=dir: each process started here writes a CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(`${url}${healthPath}`, child);
  return {
    url,
    child,
    rssMb: () => statusMb(child, 'VmRSS'),
    peakRssMb: () => statusMb(child, 'VmHWM'),
    cpuSeconds: () => {
      // /proc/<pid>/stat: utime and stime are fields 14 and 15, in clock ticks (100 a second on Linux).
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    resetPeakRss: () => writeFileSync(`/proc/${child.pid}/clear_refs`, '5'),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export function report(name: string, value: string, target: string, ok: boolean): void {
  console.log(`${ok ? 'PASS' : 'MISS'}  ${name.padEnd(58)} ${value.padStart(14)}   (target ${target})`);
}
