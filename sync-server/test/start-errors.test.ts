// Settings the server refuses stop `npm run serve` at once with their reason, not a stack trace.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-start-'));
  try {
    return spawnSync(join(repoRoot, 'node_modules/.bin/tsx'), ['sync-server/src/main.ts'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('start errors', () => {
  it.each([
    [
      { JWT_SECRET: 'too-short-secret' },
      'Lectern cannot start: JWT_SECRET must be at least 32 bytes long (it has 16).',
    ],
    [
      { JWT_SECRET: 'x'.repeat(48), TRUST_PROXY: 'true' },
      'Lectern cannot start: TRUST_PROXY=true would believe every X-Forwarded-For hop',
    ],
    [
      { JWT_SECRET: 'x'.repeat(48), S3_BUCKET: 'lectern-files', S3_REGION: 'eu-west-1' },
      'Lectern cannot start: S3_BUCKET is set, so S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY ' +
        'must be set too; missing: S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    ],
    [
      {
        JWT_SECRET: 'x'.repeat(48),
        S3_BUCKET: 'lectern-files',
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'yes',
      },
      'Lectern cannot start: S3_FORCE_PATH_STYLE must be true or false, got "yes"',
    ],
  ])('refuses %o with a clear error and exit code 1', (env, message) => {
    const run = start(env);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
