// A real sync-server for component tests under happy-dom. (data/testing/server-fixture resolves its paths
// with `new URL(…, import.meta.url)`, which happy-dom's URL turns into http://localhost:3000/…; plain
// string work on the file URL avoids that.)
import type { FixtureSite, RunningServer } from '../data/testing/server-fixture';

const repoRoot = import.meta.url.replace(/\/app\/src\/.*$/, '');

interface ServerModule {
  startTestServer(options?: { env?: Record<string, string> }): Promise<RunningServer>;
}

interface FixtureSiteModule {
  startFixtureSite(pages?: Record<string, string>): Promise<FixtureSite>;
  DEFAULT_PAGES: Record<string, string>;
}

async function load<T>(path: string): Promise<T> {
  // Typed by the interfaces above: the modules belong to the sync-server's TypeScript project.
  return (await import(/* @vite-ignore */ `${repoRoot}/${path}`)) as T;
}

export interface TestWorld {
  server: RunningServer;
  site: FixtureSite;
  close(): Promise<void>;
}

/** One server per test file, allowed to fetch a local site of articles and to register many users. */
export async function startTestWorld(): Promise<TestWorld> {
  const { startFixtureSite, DEFAULT_PAGES } = await load<FixtureSiteModule>(
    'sync-server/test/support/fixture-site.ts',
  );
  const site = await startFixtureSite(DEFAULT_PAGES);
  const { startTestServer } = await load<ServerModule>('sync-server/src/testing/start-test-server.ts');
  const server = await startTestServer({
    env: { FETCH_ALLOWED_ORIGINS: site.origin, REGISTRATIONS_PER_IP: '100000' },
  });
  return {
    server,
    site,
    async close() {
      await server.close();
      await site.close();
    },
  };
}

let users = 0;

/** A fresh account on the server; answers its token and email. */
export async function registerUser(world: TestWorld): Promise<{ token: string; email: string }> {
  users += 1;
  const email = `session-${Date.now().toString(36)}-${users}@example.com`;
  const response = await fetch(`${world.server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery', username: `reader ${users}` }),
  });
  if (!response.ok) throw new Error(`register: ${response.status}`);
  const { token } = (await response.json()) as { token: string };
  return { token, email };
}
