// The JavaScript a first visit downloads before the first screen can run: the entry script of the built
// index.html plus every chunk it modulepreloads, each gzipped as a server would send it. Prints the sum in
// KB (1,000 bytes, as Vite's build output reports them) and each file; `--json` prints the figures as JSON.
// Usage: npx vite build && node scripts/measure-initial-js.mjs [dist directory]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The most the first screen may download, gzipped, in KiB (issue 16). */
export const INITIAL_JS_BUDGET_KB = 130;

/** The entry script and the modulepreloaded chunks named by a built index.html, in their order there. */
export function initialScripts(indexHtml) {
  const entries = [...indexHtml.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]);
  const preloads = [...indexHtml.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map(
    (m) => m[1],
  );
  return [...new Set([...entries, ...preloads])];
}

/** Gzipped size in bytes of each initial script of the build in `distDir`, and their sum. */
export function measureInitialJs(distDir) {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const files = initialScripts(html).map((src) => {
    const bytes = readFileSync(join(distDir, src.replace(/^\//, '')));
    return { file: src, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
  if (files.length === 0) throw new Error(`No entry script found in ${join(distDir, 'index.html')}`);
  return { files, gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0) };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const distDir = resolve(args.find((a) => !a.startsWith('--')) ?? 'app/dist');
  const result = measureInitialJs(distDir);
  if (json) {
    console.log(JSON.stringify(result));
  } else {
    for (const f of result.files)
      console.log(`${(f.gzipBytes / 1024).toFixed(2).padStart(8)} KiB  ${f.file}`);
    console.log(`${(result.gzipBytes / 1024).toFixed(2).padStart(8)} KiB  initial JavaScript, gzipped`);
  }
}
