// `npm start` builds the app only when its sources changed since the build on disk, so several server
// nodes can start from one checkout: the first builds, the others find the build current and just serve.
// A build goes to a fresh folder that then takes app/dist's place by two renames (the old folder aside, the
// new one in), so a node already serving never reads a half-written build, only, for that instant, none; a
// lock folder keeps two starting nodes from building at once.
// Usage: tsx scripts/build-if-changed.ts   (then `npm run serve`)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What the built app and extension are made from: a change to any of these means a new build. */
export const BUILD_INPUTS: readonly string[] = [
  'app/src',
  'app/public',
  'app/index.html',
  'shared-schema/src',
  'extension/src',
  'extension/build.mjs',
  'vite.config.ts',
  'package-lock.json',
];

/** The file beside the built app naming the inputs it was built from. */
export const STAMP_FILE = '.build-inputs';

const skipped = (name: string): boolean =>
  name === 'node_modules' || name.endsWith('.test.ts') || name.endsWith('.test.tsx');

function filesUnder(base: string, path: string): string[] {
  const full = join(base, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [path];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(base, join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(/[\\/]/).some(skipped));
}

/** A hash of every input's path and bytes, in a stable order: equal exactly when nothing changed. */
export function inputsFingerprint(base = root, inputs: readonly string[] = BUILD_INPUTS): string {
  const hash = createHash('sha256');
  const files = inputs.flatMap((input) => filesUnder(base, input)).sort();
  for (const file of files) {
    hash.update(file.replaceAll('\\', '/'));
    hash.update('\0');
    hash.update(readFileSync(join(base, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** True when `distDir` holds a build of exactly these inputs. */
export function buildIsCurrent(distDir: string, fingerprint: string): boolean {
  const stamp = join(distDir, STAMP_FILE);
  return (
    existsSync(join(distDir, 'index.html')) &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8') === fingerprint
  );
}

/** Puts the finished build `nextDir` in place of `distDir` with a rename, the old one removed after. */
export function swapIn(nextDir: string, distDir: string): void {
  const oldDir = `${distDir}.old-${process.pid}`;
  if (existsSync(distDir)) renameSync(distDir, oldDir);
  renameSync(nextDir, distDir);
  rmSync(oldDir, { recursive: true, force: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Holds `lockDir` while `work` runs; waits for another live holder, takes over from a dead one. */
export async function withBuildLock<T>(lockDir: string, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = NaN;
      try {
        holder = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
      } catch {
        // the holder is between creating the folder and writing its pid: wait for it
      }
      if (Number.isInteger(holder) && holder > 0 && !processAlive(holder))
        rmSync(lockDir, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const distDir = join(root, 'app', 'dist');
  await withBuildLock(join(root, 'app', '.build-lock'), async () => {
    const fingerprint = inputsFingerprint();
    if (buildIsCurrent(distDir, fingerprint)) {
      console.log('The app build is current: serving it as it is.');
      return;
    }
    const nextDir = join(root, 'app', `dist.next-${process.pid}`);
    rmSync(nextDir, { recursive: true, force: true });
    const run = (args: string[]) =>
      execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env });
    run([
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--outDir',
      nextDir,
      '--emptyOutDir',
    ]);
    run([join(root, 'extension', 'build.mjs')]);
    writeFileSync(join(nextDir, STAMP_FILE), fingerprint);
    swapIn(nextDir, distDir);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
