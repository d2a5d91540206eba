// Builds the browser extension into extension/dist (the folder Chromium loads unpacked, Firefox too) and
// a zip of it for the stores. Run by the root `npm run build`.
//   LECTERN_SERVER_URL   the Lectern the extension starts with (default http://localhost:3000); the
//                        manifest's only host permission is that server's host, others are asked for
//                        at run time from the options page
//   LECTERN_EXTENSION_OUT another output folder (the end-to-end tests build their own copy)
import { build } from 'esbuild';
import { zipSync } from 'fflate';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const icons = join(here, '..', 'app', 'public', 'icons');

export async function buildExtension({
  server = process.env.LECTERN_SERVER_URL ?? 'http://localhost:3000',
  outDir = process.env.LECTERN_EXTENSION_OUT ?? join(here, 'dist'),
  zipFile = process.env.LECTERN_EXTENSION_OUT ? null : join(here, 'lectern-extension.zip'),
} = {}) {
  const origin = new URL(server).origin;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'icons'), { recursive: true });
  await build({
    entryPoints: ['background', 'popup', 'options'].map((name) => join(here, 'src', `${name}.ts`)),
    outdir: outDir,
    bundle: true,
    format: 'esm',
    target: ['chrome120', 'firefox128'],
    minify: true,
    legalComments: 'none',
    define: { __LECTERN_DEFAULT_SERVER__: JSON.stringify(origin) },
    logLevel: 'warning',
  });
  // Both pages sign in with one form, written once in src/sign-in-form.html and set where they name it.
  const signInForm = readFileSync(join(here, 'src', 'sign-in-form.html'), 'utf8')
    .trimEnd()
    .split('\n');
  for (const page of ['popup.html', 'options.html']) {
    const html = readFileSync(join(here, 'src', page), 'utf8');
    const slot = /^( *)<!-- sign-in-form\.html -->$/m;
    if (!slot.test(html)) throw new Error(`${page} has no <!-- sign-in-form.html --> line`);
    const filled = html.replace(slot, (_line, indent) => signInForm.map((line) => indent + line).join('\n'));
    writeFileSync(join(outDir, page), filled);
  }
  copyFileSync(join(here, 'src', 'extension.css'), join(outDir, 'extension.css'));
  copyFileSync(join(icons, 'favicon-32.png'), join(outDir, 'icons', 'icon-32.png'));
  copyFileSync(join(icons, 'icon-192.png'), join(outDir, 'icons', 'icon-192.png'));
  const manifest = JSON.parse(readFileSync(join(here, 'manifest.json'), 'utf8'));
  const url = new URL(origin);
  // Match patterns leave the port out: the pattern covers the server's host on any port.
  manifest.host_permissions = [`${url.protocol}//${url.hostname}/*`];
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (zipFile) {
    const files = {};
    const walk = (dir) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else files[relative(outDir, path).split('\\').join('/')] = readFileSync(path);
      }
    };
    walk(outDir);
    writeFileSync(zipFile, zipSync(files, { level: 9 }));
  }
  return { outDir, zipFile, origin };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { outDir, zipFile, origin } = await buildExtension();
  console.log(
    `extension for ${origin} built in ${relative(process.cwd(), outDir)}${zipFile ? ` and ${relative(process.cwd(), zipFile)}` : ''}`,
  );
}
