// `npm run bench`: runs every benchmark script in its own process, one after another, prints their figures,
// then one table of figure × library size with each figure's target. Exits non-zero when a target is missed.
//   npm run bench -- --sizes 5000            only these library sizes (comma-separated; default 5000,20000,50000)
//   npm run bench -- --only server           only these groups: server, postgres-search, extraction, device, import,
//                                            save-html, images, new-device, live
//   npm run bench -- server extraction       the same, by the scripts' names (as before)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatTable, readFigures } from './support/bench-table';
import { repoRoot } from './support/server-process';

const SCRIPTS = [
  { script: 'server-bench.ts', group: 'server' },
  { script: 'postgres-search-bench.ts', group: 'postgres-search' },
  { script: 'extraction-bench.ts', group: 'extraction' },
  { script: 'app-data-bench.ts', group: 'device' },
  { script: 'dashboard-bench.ts', group: 'device' },
  { script: 'import-bench.ts', group: 'import' },
  { script: 'save-html-bench.ts', group: 'save-html' },
  { script: 'image-archive-bench.ts', group: 'images' },
  { script: 'offline-images-bench.ts', group: 'device' },
  { script: 'new-device-bench.ts', group: 'new-device' },
  { script: 'live-updates-bench.ts', group: 'live' },
];

function parseArguments(args: readonly string[]) {
  const only: string[] = [];
  let sizes: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const [flag, inline] = arg.split('=', 2);
    if (flag === '--sizes' || flag === '--only') {
      const value = inline ?? args[(i += 1)] ?? '';
      if (flag === '--sizes') sizes = value;
      else only.push(...value.split(',').filter(Boolean));
    } else only.push(arg);
  }
  return { only, sizes };
}

const { only, sizes } = parseArguments(process.argv.slice(2));
const resultsDir = mkdtempSync(join(tmpdir(), 'lectern-bench-results-'));
const resultsFile = join(resultsDir, 'figures.jsonl');

let failed = false;
for (const { script, group } of SCRIPTS) {
  if (only.length > 0 && !only.some((name) => name === group || script.startsWith(name))) continue;
  const path = join(repoRoot, 'bench', script);
  if (!existsSync(path)) continue;
  console.log(`\n=== ${script}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, BENCH_RESULTS_FILE: resultsFile, ...(sizes ? { BENCH_SIZES: sizes } : {}) },
  });
  if (result.status !== 0) failed = true;
}

const figures = readFigures(resultsFile);
rmSync(resultsDir, { recursive: true, force: true });
for (const side of ['server', 'extraction', 'device'] as const) {
  const ofSide = figures.filter((figure) => figure.side === side);
  if (ofSide.length === 0) continue;
  console.log(`\n${side} figures × library size (articles):\n${formatTable(ofSide)}`);
}
if (figures.some((figure) => !figure.ok)) failed = true;
process.exit(failed ? 1 : 0);
