import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';

let server: TestServer;
beforeAll(async () => {
  const appDir = mkdtempSync(join(tmpdir(), 'lectern-app-'));
  writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>Lectern</title><div id="root"></div>');
  writeFileSync(join(appDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  server = await startTestServer({ appDir });
});
afterAll(() => server.close());

const connectSrc = (response: Response) =>
  /connect-src ([^;]*)/.exec(response.headers.get('content-security-policy') ?? '')?.[1];

describe('serving the built app', () => {
  it('answers every client route with index.html, revalidated on each visit', async () => {
    for (const path of ['/', '/article/123', '/lists', '/list/abc']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<div id="root">');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('keeps pages to their own origin but lets the service worker cache images from article sites', async () => {
    expect(connectSrc(await fetch(`${server.url}/`))).toBe("'self'");
    const worker = await fetch(`${server.url}/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    expect(connectSrc(worker)).toBe("'self' https: http:");
  });

  it('still answers unknown API paths with JSON 404, not the app', async () => {
    const response = await fetch(`${server.url}/api/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Not found' });
  });
});
