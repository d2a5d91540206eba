// `npm run bench`: runs every benchmark script in its own process, one after another, and prints figures.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support/server-process';

const SCRIPTS = [
  'server-bench.ts',
  'extraction-bench.ts',
  'app-data-bench.ts',
  'dashboard-bench.ts',
  'import-bench.ts',
  'save-html-bench.ts',
  'image-archive-bench.ts',
  'offline-images-bench.ts',
];
const only = process.argv.slice(2);

let failed = false;
for (const script of SCRIPTS) {
  if (only.length > 0 && !only.some((name) => script.startsWith(name))) continue;
  const path = join(repoRoot, 'bench', script);
  if (!existsSync(path)) continue;
  console.log(`\n=== ${script}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
