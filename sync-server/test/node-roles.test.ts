// ROLE at start, over HTTP: a worker node answers GET /api/health and nothing else (no API, no app); a web
// node answers requests and queues jobs but runs none (an import it accepts stays queued for a worker).
// Both roles need DATABASE_URL, so each server here is given a throwaway PostgreSQL database.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createTestDatabase, stopTestCluster } from '../src/testing/postgres-cluster';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, signUp } from './support/api-client';

afterAll(stopTestCluster);

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(role: string): Promise<TestServer> {
  const server = await startTestServer({ env: { ROLE: role, DATABASE_URL: await createTestDatabase() } });
  servers.push(server);
  return server;
}

describe('ROLE', () => {
  it('worker: answers GET /api/health and 404 to every other route, the app included', async () => {
    const worker = await start('worker');
    const api = new ApiClient(worker.url);
    expect(await api.get('/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    for (const answer of [
      await api.post('/auth/register', {
        email: 'ann@example.com',
        password: 'correct horse',
        username: 'Ann',
      }),
      await api.post('/auth/login', { email: 'ann@example.com', password: 'correct horse' }),
      await api.get('/articles'),
      await api.get('/sync/events'),
      await api.get('/lists/public/abc'),
    ])
      expect(answer).toMatchObject({ status: 404, body: { error: SERVER_ERRORS.notFound } });
    expect((await fetch(`${worker.url}/`)).status).toBe(404);
  });

  it('web: accepts an import and queues its job, but runs none', async () => {
    const web = await start('web');
    const api = new ApiClient(web.url);
    const { client } = await signUp(api);
    const form = new FormData();
    form.append(
      'file',
      new Blob(['title,url,time_added,tags,status\nA,https://example.org/a,1577836800,,unread\n']),
      'export.csv',
    );
    const answer = await client.post('/imports', form);
    expect(answer.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const still = await client.get(`/imports/${answer.body.import.id}`);
    expect(still.body.import).toMatchObject({ status: 'queued', imported: 0 });
    expect((await client.get('/articles')).body.articles).toEqual([]);
  });

  it('web and worker need DATABASE_URL; without ROLE a node does both', () => {
    const env = { JWT_SECRET: 'test-secret-'.padEnd(48, 'x') };
    expect(() => loadConfig({ ...env, ROLE: 'web' }, { appDir: null })).toThrow(
      'ROLE=web needs DATABASE_URL: on SQLite one process answers requests and runs the jobs (ROLE=both).',
    );
    expect(() => loadConfig({ ...env, ROLE: 'worker' }, { appDir: null })).toThrow(
      'ROLE=worker needs DATABASE_URL',
    );
    expect(loadConfig(env, { appDir: null }).role).toBe('both');
  });
});
