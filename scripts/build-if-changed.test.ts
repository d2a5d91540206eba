import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIsCurrent, inputsFingerprint, STAMP_FILE, swapIn, withBuildLock } from './build-if-changed';

let base: string;
afterEach(() => rmSync(base, { recursive: true, force: true }));

function checkout(): string {
  base = mkdtempSync(join(tmpdir(), 'lectern-build-'));
  mkdirSync(join(base, 'src', 'deep'), { recursive: true });
  writeFileSync(join(base, 'src', 'main.ts'), 'export const a = 1;\n');
  writeFileSync(join(base, 'src', 'deep', 'view.tsx'), 'export const b = 2;\n');
  writeFileSync(join(base, 'src', 'deep', 'view.test.tsx'), 'test\n');
  writeFileSync(join(base, 'config.ts'), 'export default {};\n');
  return base;
}

const inputs = ['src', 'config.ts', 'missing-folder'];

describe('building only when the app changed', () => {
  it('gives the same fingerprint for the same sources and another for any change', () => {
    checkout();
    const first = inputsFingerprint(base, inputs);
    expect(inputsFingerprint(base, inputs)).toBe(first);
    writeFileSync(join(base, 'src', 'deep', 'view.test.tsx'), 'a test changed, not the app\n');
    expect(inputsFingerprint(base, inputs)).toBe(first);
    writeFileSync(join(base, 'src', 'deep', 'view.tsx'), 'export const b = 3;\n');
    const edited = inputsFingerprint(base, inputs);
    expect(edited).not.toBe(first);
    writeFileSync(join(base, 'src', 'added.ts'), '\n');
    expect(inputsFingerprint(base, inputs)).not.toBe(edited);
    writeFileSync(join(base, 'config.ts'), 'export default { x: 1 };\n');
    expect(inputsFingerprint(base, inputs)).not.toBe(edited);
  });

  it('takes a build as current only with its index.html and the same fingerprint', () => {
    checkout();
    const dist = join(base, 'dist');
    mkdirSync(dist);
    expect(buildIsCurrent(dist, 'abc')).toBe(false);
    writeFileSync(join(dist, 'index.html'), '<!doctype html>');
    expect(buildIsCurrent(dist, 'abc')).toBe(false);
    writeFileSync(join(dist, STAMP_FILE), 'abc');
    expect(buildIsCurrent(dist, 'abc')).toBe(true);
    expect(buildIsCurrent(dist, 'abd')).toBe(false);
  });

  it('puts a finished build in place of the served one and removes the old', () => {
    checkout();
    const dist = join(base, 'dist');
    mkdirSync(dist);
    writeFileSync(join(dist, 'index.html'), 'old');
    const next = join(base, 'dist.next-1');
    mkdirSync(next);
    writeFileSync(join(next, 'index.html'), 'new');
    swapIn(next, dist);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('new');
    expect(existsSync(next)).toBe(false);
    expect(existsSync(`${dist}.old-${process.pid}`)).toBe(false);
  });

  it('lets one starting node build at a time and takes over a lock left by a dead one', async () => {
    checkout();
    const lock = join(base, '.build-lock');
    const order: string[] = [];
    const slow = (name: string) => async () => {
      order.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      order.push(`${name} out`);
    };
    await Promise.all([withBuildLock(lock, slow('a')), withBuildLock(lock, slow('b'))]);
    expect(order).toEqual(['a in', 'a out', 'b in', 'b out']);
    expect(existsSync(lock)).toBe(false);

    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), '2147483646'); // no such process
    let ran = false;
    await withBuildLock(lock, async () => {
      ran = true;
    });
    expect(ran).toBe(true);
  });
});
