// Fails when package-lock.json leaves out a platform binding that a locked package lists.
// npm drops an optional dependency it could not find in the registry; the lock file then installs on this
// machine but breaks `npm ci` everywhere, and on macOS or Windows with npm 10 Vite can't find its binding.
import { readFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
const packages = lock.packages ?? {};

/** Where npm would look for `name` when installing it for the package at `path` (nearest node_modules up). */
function isLocked(path, name) {
  let base = path;
  for (;;) {
    if (packages[`${base ? `${base}/` : ''}node_modules/${name}`]) return true;
    if (!base) return false;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

const missing = [];
for (const [path, entry] of Object.entries(packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    if (!isLocked(path, name)) missing.push(`${path || '(root)'}@${entry.version ?? ''} → ${name}`);
  }
}

if (missing.length > 0) {
  console.error(`package-lock.json lacks ${missing.length} optional dependencies its packages list:`);
  for (const line of missing) console.error(`  ${line}`);
  console.error('Pin the package to a version whose platform bindings are all published, then npm install.');
  process.exit(1);
}
console.log(
  `package-lock.json: every optional dependency of ${Object.keys(packages).length} entries is locked`,
);
