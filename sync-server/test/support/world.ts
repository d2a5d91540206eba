// One server and one fixture site per test file, wired together through FETCH_ALLOWED_ORIGINS.
import { startTestServer, type TestServer } from '../../src/testing/start-test-server';
import { ApiClient } from './api-client';
import { startFixtureSite, type FixtureSite } from './fixture-site';

export interface World {
  server: TestServer;
  site: FixtureSite;
  api: ApiClient;
  close(): Promise<void>;
}

export async function startWorld(env: Record<string, string> = {}): Promise<World> {
  const site = await startFixtureSite();
  const server = await startTestServer({ env: { FETCH_ALLOWED_ORIGINS: site.origin, ...env } });
  return {
    server,
    site,
    api: new ApiClient(server.url),
    close: async () => {
      await server.close();
      await site.close();
    },
  };
}
