// Issue 15: a node killed in the middle of an extraction job leaves it to another node, which finishes it
// once. Two server processes (main.ts) on one PostgreSQL: node A takes a save whose page is slow to come,
// and is killed (SIGKILL, as a machine dies) while its job fetches the page; node B, started meanwhile,
// takes the job up once it expires and saves the article. The reader's request to A fails with the
// connection; the library then holds the article once, and saving it again through B answers that one.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally } from '../src/testing/listen-locally';
import { createTestDatabase } from '../src/testing/postgres-cluster';
import { testEngine } from '../src/testing/test-database';
import { ApiClient, signUp } from './support/api-client';
import { articlePage } from './support/fixture-site';
import { startServerProcess, type ServerProcess } from './support/server-process';

const PAGE = articlePage({
  title: 'The Last Lighthouse Keeper',
  author: 'Ada Stone',
  paragraphs: Array.from(
    { length: 4 },
    (_, i) =>
      `Paragraph ${i} about the last lighthouse keeper is long enough for Readability to treat it as real ` +
      'prose, with several clauses, commas and full sentences, so that the page scores as an article.',
  ),
});

/** A site whose page never comes on its first request (held open until the node asking dies). */
let site: Server;
let origin: string;
const requests: string[] = [];
let firstHeld: () => void = () => {};
const firstRequest = new Promise<void>((resolve) => (firstHeld = resolve));

let dataDir: string;
let env: Record<string, string>;
const nodes: ServerProcess[] = [];

beforeAll(async () => {
  if (testEngine() !== 'postgres')
    throw new Error('node-killed-mid-save.test.ts runs in the PostgreSQL project');
  site = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push(request.url ?? '');
    if (requests.length === 1) {
      firstHeld();
      return; // never answered: the node asking is killed while it waits
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  origin = await listenLocally(site);
  dataDir = mkdtempSync(join(tmpdir(), 'lectern-killed-node-'));
  env = {
    DATABASE_URL: await createTestDatabase(),
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-'.padEnd(48, 'x'),
    FETCH_ALLOWED_ORIGINS: origin,
    // A job whose node died goes to another this long after it started (pg-boss's expiry).
    JOB_EXPIRE_SECONDS: '3',
  };
});

afterAll(async () => {
  for (const node of nodes) await node.stop();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a node killed in the middle of a save', () => {
  it('leaves the extraction to another node, which saves the article once', async () => {
    const nodeA = await startServerProcess(env);
    nodes.push(nodeA);
    const reader = await signUp(new ApiClient(nodeA.url));
    const url = `${origin}/articles/lighthouse`;
    const onA = reader.client.post('/articles', { url });
    onA.catch(() => undefined);
    // Node A's job is fetching the page: the only node running jobs.
    await firstRequest;

    const nodeB = await startServerProcess(env);
    nodes.push(nodeB);
    await nodeA.kill();
    await expect(onA).rejects.toThrow();

    const onB = new ApiClient(nodeB.url, reader.token);
    const started = Date.now();
    let articles: { id: string; url: string; title: string }[] = [];
    while (articles.length === 0) {
      if (Date.now() - started > 60_000) throw new Error('node B did not finish the save within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
      articles = (await onB.get('/articles')).body.articles;
    }
    console.log(`node A killed mid-extraction: node B saved the article ${Date.now() - started} ms later`);
    expect(articles).toHaveLength(1);
    expect(articles[0]).toMatchObject({ url, title: 'The Last Lighthouse Keeper' });
    // The page was asked for twice: once by A (never answered), once by B.
    expect(requests).toEqual(['/articles/lighthouse', '/articles/lighthouse']);

    // The reader's device sends the save again (its request failed): the article saved, not a second one.
    const again = await onB.post('/articles', { url });
    expect(again.status).toBe(200);
    expect(again.body.article.id).toBe(articles[0]?.id);
    expect((await onB.get('/articles')).body.articles).toHaveLength(1);
    const feed = (await onB.get('/sync/changes?since=0')).body.changes as { entity: string; id: string }[];
    expect(feed.filter((change) => change.entity === 'article').map((change) => change.id)).toEqual([
      articles[0]?.id,
    ]);
    expect(requests).toHaveLength(2);
  }, 120_000);
});
