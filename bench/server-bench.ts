// The sync server's figures at each library size (issue 16): GET /api/articles/{id} throughput against a
// bare Fastify route answering the same body, search p95, the change feed from cursor 0 (as cards and with
// bodies), the whole list of a 2,000-article library, start-up, and the server's memory while these run. One
// library (bench/support/bench-library.ts) grows from size to size; the server is restarted at each.
// On both database engines in one run (bench/support/bench-engines.ts): SQLite, then PostgreSQL when it is
// installed, where the same figures are taken and also two server processes on the one database against
// one (issue 15: nodes share nothing but the database, so a second node adds capacity).
// Run: npx tsx bench/server-bench.ts (BENCH_SIZES=5000 for one size, BENCH_ENGINES=postgres for one
// engine), or npm run bench -- --only server.
import {
  CARDS_MAX_LIMIT,
  CHANGES_MAX_LIMIT,
  type ArticleListResponse,
  type ArticleSummary,
} from '@lectern/shared-schema';
import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../sync-server/src/db/database';
import { sql } from 'drizzle-orm';
import { registerUser } from '../sync-server/src/services/users';
import { benchLibrary, benchSearchQueries, growLibrary, type BenchLibrary } from './support/bench-library';
import { benchEngineNames, openBenchEngine, type BenchEngine } from './support/bench-engines';
import { anyMissed, benchSizes, recordFigure as record, type Figure } from './support/bench-table';
import { percentile, startProcess, type RunningProcess } from './support/server-process';

const LIBRARY_SEED = 16;
const LIST_SEED = 17;
const LIST_ARTICLES = 2_000;
const PASSWORD = 'benchmark password';
const SEARCHES = 300;
const LIST_RUNS = 11;

const TARGETS = {
  readRatio: 0.75,
  searchP95Ms: 15,
  feedMs: 5_000,
  listMs: 100,
  startupMs: 1_000,
  /** What the server may grow by while the figures run: pages and answers are bounded, not the library. */
  rssGrowthMb: 100,
  peakRssMb: 300,
};

async function login(url: string, email: string): Promise<string> {
  const answer = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  return ((await answer.json()) as { token: string }).token;
}

/**
 * Requests per second, and the server's CPU time per request: on a machine shared with other work (and with
 * autocannon itself) the server is seldom the only thing running, so its capacity, requests per CPU second,
 * is what tells one route's cost from another's.
 */
async function throughput(
  target: RunningProcess,
  url: string,
  seconds: number,
  headers: Record<string, string> = {},
  connections = 10,
) {
  const cpuBefore = target.cpuSeconds();
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const requests = result.requests.total;
  return {
    rps: result.requests.average,
    cpuPerRequestMs: requests > 0 ? ((target.cpuSeconds() - cpuBefore) * 1000) / requests : Infinity,
    errors: result.errors + result.non2xx,
  };
}

/** The article whose body is nearest the median's 25 KB: the page a reader opens most often. */
async function typicalArticle(db: Db, library: BenchLibrary): Promise<string> {
  let best = library.ids[0] ?? '';
  let bestDistance = Infinity;
  for (const id of library.ids.slice(0, 500)) {
    const row = await db.get<{ length: number }>(
      sql`SELECT length(content) AS length FROM articles WHERE id = ${id}`,
    );
    const distance = Math.abs((row?.length ?? 0) - 25 * 1024);
    if (distance < bestDistance) [best, bestDistance] = [id, distance];
  }
  return best;
}

/**
 * Each route runs this long before it is measured: a server is measured as it runs for days, its code
 * optimized by V8. Two seconds left the API's route (far more code than the bare one's) part-optimized:
 * measured again after it, 30 to 50% more CPU a request in the first five seconds than in the next.
 */
const WARM_UP_SECONDS = 5;

/**
 * Rounds of the bare route and the API's route, one after the other, MEASURE_SECONDS each. On this shared
 * machine one route measured once moved by half between runs (the same code's API route 119 µs a request
 * in one run, 204 in the next), with whatever else ran then; anything else running only adds to a
 * request's CPU, so each route's least CPU a request over the rounds is its cost, and interleaving them
 * gives both routes the same moments of the machine. Five rounds: with three, the API's route on
 * PostgreSQL (its requests shared with the database's process) read 231, 262 and 198 µs in one run while
 * the bare route read 145, 140 and 142, its least still a third over its cost at another size.
 */
const RATIO_ROUNDS = 5;
const MEASURE_SECONDS = 3;

type Throughput = Awaited<ReturnType<typeof throughput>>;

/** The run of least CPU a request; errors summed over every run. */
function leastCpu(runs: readonly Throughput[]): Throughput {
  const best = runs.reduce((a, b) => (b.cpuPerRequestMs < a.cpuPerRequestMs ? b : a));
  return { ...best, errors: runs.reduce((sum, run) => sum + run.errors, 0) };
}

/**
 * The API route against two bare Fastify routes answering the same JSON: /api/bare as a plain route does
 * (returning the object, serialized on each request; the baseline of the target, as in issue 2) and
 * /api/bare-text sending the bytes already serialized (the framework's floor for sending them).
 */
async function readRatio(server: RunningProcess, articleUrl: string, token: string, dataDir: string) {
  const auth = { authorization: `Bearer ${token}` };
  const sample = await (await fetch(articleUrl, { headers: auth })).text();
  const payloadFile = join(dataDir, 'bare-payload.json');
  writeFileSync(payloadFile, sample);
  const bare = await startProcess('bench/support/bare-fastify.ts', { BARE_PAYLOAD_FILE: payloadFile });
  try {
    await throughput(bare, `${bare.url}/api/bare`, WARM_UP_SECONDS);
    await throughput(server, articleUrl, WARM_UP_SECONDS, auth);
    const bareRuns: Throughput[] = [];
    const apiRuns: Throughput[] = [];
    for (let round = 0; round < RATIO_ROUNDS; round += 1) {
      bareRuns.push(await throughput(bare, `${bare.url}/api/bare`, MEASURE_SECONDS));
      apiRuns.push(await throughput(server, articleUrl, MEASURE_SECONDS, auth));
    }
    const floorResult = await throughput(bare, `${bare.url}/api/bare-text`, MEASURE_SECONDS);
    const spread = (runs: readonly Throughput[]) =>
      runs.map((run) => (run.cpuPerRequestMs * 1000).toFixed(0)).join(', ');
    console.log(`      CPU a request by round: API ${spread(apiRuns)} µs; bare ${spread(bareRuns)} µs`);
    return { api: leastCpu(apiRuns), bare: leastCpu(bareRuns), floor: floorResult, bytes: sample.length };
  } finally {
    await bare.stop();
  }
}

/**
 * The search's p95 as the server answers it: each query's time from the request sent to the answer's last
 * byte, over one kept-alive connection (getBytes). Node's fetch added 1 to 3 ms to a search's p95 here
 * (its streams and objects; rounds of each, alternating, on one server with the same queries: SQLite at
 * 5,000 p95 11.3 to 13.4 ms with fetch, 8.4 to 10.7 with this), which is the client's cost, not the
 * server's. The answers are parsed after, to count what they found.
 */
async function searchP95(server: RunningProcess, token: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let found = 0;
  try {
    for (const query of benchSearchQueries(LIBRARY_SEED, 99, SEARCHES)) {
      const started = performance.now();
      const { status, body } = await getBytes(
        agent,
        `${server.url}/api/articles/search?q=${encodeURIComponent(query)}`,
        token,
      );
      latencies.push(performance.now() - started);
      if (status !== 200) throw new Error(`search answered ${status}: ${body.subarray(0, 200)}`);
      found += (JSON.parse(body.toString('utf8')) as { articles: ArticleSummary[] }).articles.length;
    }
  } finally {
    agent.destroy();
  }
  return { p95: percentile(latencies, 95), found };
}

/** One GET's status and body bytes, over a kept-alive connection (fetch's own overhead would be the floor). */
function getBytes(agent: Agent, url: string, token: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

const CHANGE_START = Buffer.from('{"seq":');

/**
 * The whole change feed from cursor 0, page after page: as cards (a new device's pull) or with every body.
 * Only each page's head is read (cursor and hasMore come first): decoding and parsing bodies is the device's
 * cost, not the server's, and Node's fetch alone tops out near 150 MB/s here, below what the server sends.
 */
async function wholeFeed(server: RunningProcess, token: string, cards: boolean) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const started = performance.now();
  let cursor = 0;
  let changes = 0;
  let pages = 0;
  let bytes = 0;
  try {
    for (;;) {
      const { status, body } = await getBytes(
        agent,
        // The pages a device asks for: up to 5,000 cards, or 1,000 changes with their bodies.
        `${server.url}/api/sync/changes?since=${cursor}&limit=${cards ? `${CARDS_MAX_LIMIT}&cards=true` : CHANGES_MAX_LIMIT}`,
        token,
      );
      const head = /^\{"cursor":(\d+),"hasMore":(true|false),/.exec(body.subarray(0, 64).toString());
      if (status !== 200 || !head) throw new Error(`the feed answered ${status}: ${body.subarray(0, 200)}`);
      // Inside JSON strings every quote is escaped, so this marks exactly one change.
      for (let at = body.indexOf(CHANGE_START); at !== -1; at = body.indexOf(CHANGE_START, at + 1))
        changes += 1;
      pages += 1;
      bytes += body.length;
      cursor = Number(head[1]);
      if (head[2] === 'false') break;
    }
  } finally {
    agent.destroy();
  }
  return { ms: performance.now() - started, changes, pages, bytes };
}

async function wholeList(server: RunningProcess, token: string) {
  const times: number[] = [];
  let count = 0;
  for (let run = 0; run < LIST_RUNS; run += 1) {
    const started = performance.now();
    const answer = await fetch(`${server.url}/api/articles`, {
      headers: { authorization: `Bearer ${token}` },
    });
    count = ((await answer.json()) as ArticleListResponse).articles.length;
    times.push(performance.now() - started);
  }
  return { median: percentile(times.slice(1), 50), count };
}

async function measure(
  engine: BenchEngine,
  size: number,
  dataDir: string,
  library: BenchLibrary,
  articleId: string,
) {
  const startupFile = join(dataDir, 'startup-ms');
  const serverEnv = { DATA_DIR: dataDir, ...engine.serverEnv };
  const spawned = performance.now();
  const server = await startProcess('bench/support/timed-server.ts', {
    ...serverEnv,
    STARTUP_FILE: startupFile,
  });
  // Every figure's name says the engine it was taken on.
  const recordFigure = (figure: Figure) => record({ ...figure, figure: `${engine.label}: ${figure.figure}` });
  const untilHealthy = performance.now() - spawned;
  try {
    const startupMs = Number(readFileSync(startupFile, 'utf8'));
    const readerToken = await login(server.url, 'reader@bench.test');
    const listerToken = await login(server.url, 'lister@bench.test');
    // Signing in runs scrypt (about 130 MB for a moment, by design): the peak counts from here on.
    const rssBefore = server.rssMb();
    server.resetPeakRss();

    const read = await readRatio(server, `${server.url}/api/articles/${articleId}`, readerToken, dataDir);
    // Twice over the same queries: the first pass reads the index from disk into memory after the start
    // (shown, no target), the second is search as a reader using the server meets it.
    const coldSearch = await searchP95(server, readerToken);
    const search = await searchP95(server, readerToken);
    const feed = await wholeFeed(server, readerToken, true);
    const bodies = await wholeFeed(server, readerToken, false);
    const list = await wholeList(server, listerToken);
    const rssAfter = server.rssMb();
    const rssPeak = server.peakRssMb();

    // Capacity: requests per CPU second, the route's against the cheapest route's (see throughput).
    const ratio = read.bare.cpuPerRequestMs / read.api.cpuPerRequestMs;
    recordFigure({
      side: 'server',
      figure: 'GET /api/articles/{id} capacity / bare Fastify',
      size,
      value: `${(ratio * 100).toFixed(0)}%`,
      target: `>= ${TARGETS.readRatio * 100}%`,
      ok: ratio >= TARGETS.readRatio && read.api.errors === 0,
    });
    const floorRatio = read.floor.cpuPerRequestMs / read.api.cpuPerRequestMs;
    console.log(
      `      ${(read.api.cpuPerRequestMs * 1000).toFixed(0)} / ${(read.bare.cpuPerRequestMs * 1000).toFixed(0)} µs CPU per request; ` +
        `${Math.round(read.api.rps)} / ${Math.round(read.bare.rps)} rps = ${((read.api.rps / read.bare.rps) * 100).toFixed(0)}% ` +
        `(wall clock, shared machine); ${(read.bytes / 1024).toFixed(0)} KB answer`,
    );
    console.log(
      `      against the floor (bare route sending the bytes already serialized): ${(read.floor.cpuPerRequestMs * 1000).toFixed(0)} µs, ` +
        `capacity ${(floorRatio * 100).toFixed(0)}%, ${Math.round(read.floor.rps)} rps`,
    );
    recordFigure({
      side: 'server',
      figure: 'GET /api/articles/{id} capacity / bare floor (info)',
      size,
      value: `${(floorRatio * 100).toFixed(0)}%`,
      target: 'none',
      ok: true,
    });
    recordFigure({
      side: 'server',
      figure: `search p95 (${SEARCHES} queries)`,
      size,
      value: `${search.p95.toFixed(1)} ms`,
      target: `<= ${TARGETS.searchP95Ms} ms`,
      ok: search.p95 <= TARGETS.searchP95Ms,
    });
    console.log(`      ${search.found} hits`);
    recordFigure({
      side: 'server',
      figure: `search p95, first pass after start (info)`,
      size,
      value: `${coldSearch.p95.toFixed(1)} ms`,
      target: 'none',
      ok: coldSearch.found === search.found,
    });
    // A device with no articles pulls the feed from cursor 0 as cards (articles without their body: the
    // app's data/sync/pull.ts), and fetches the bodies after, in the background: that pull is what a new
    // device waits for. The feed with every body, what a device catching up on many changes reads, is
    // linear in the library's bytes and shown beside it.
    for (const [pulled, label, target] of [
      [feed, 'change feed from cursor 0 as a new device pulls it (cards)', TARGETS.feedMs],
      [bodies, 'change feed from cursor 0 with every body (info)', Infinity],
    ] as const) {
      recordFigure({
        side: 'server',
        figure: label,
        size,
        value: `${(pulled.ms / 1000).toFixed(2)} s`,
        target: target === Infinity ? 'none' : `<= ${target / 1000} s`,
        // Every article, and each highlight (one article in ten), at least once.
        ok: pulled.ms <= target && pulled.changes >= size + Math.floor(size / 10),
      });
      console.log(
        `      ${pulled.changes} changes in ${pulled.pages} pages, ${(pulled.bytes / 1e6).toFixed(0)} MB, ${(pulled.bytes / 1e6 / (pulled.ms / 1000)).toFixed(0)} MB/s`,
      );
    }
    recordFigure({
      side: 'server',
      figure: `GET /api/articles, whole list of ${LIST_ARTICLES.toLocaleString('en')} (median)`,
      size,
      value: `${list.median.toFixed(1)} ms`,
      target: `<= ${TARGETS.listMs} ms`,
      ok: list.median <= TARGETS.listMs && list.count === LIST_ARTICLES,
    });
    recordFigure({
      side: 'server',
      figure: 'start-up, database open to listening',
      size,
      value: `${startupMs.toFixed(0)} ms`,
      target: `<= ${TARGETS.startupMs} ms`,
      ok: startupMs <= TARGETS.startupMs,
    });
    console.log(`      spawn to first health answer, code loading included: ${untilHealthy.toFixed(0)} ms`);
    recordFigure({
      side: 'server',
      figure: 'server RSS growth while measured (after - before)',
      size,
      value: `${(rssAfter - rssBefore).toFixed(0)} MB`,
      target: `<= ${TARGETS.rssGrowthMb} MB`,
      ok: rssAfter - rssBefore <= TARGETS.rssGrowthMb,
    });
    recordFigure({
      side: 'server',
      figure: 'server RSS peak while measured',
      size,
      value: `${rssPeak.toFixed(0)} MB`,
      target: `<= ${TARGETS.peakRssMb} MB`,
      ok: rssPeak <= TARGETS.peakRssMb,
    });
    console.log(
      `      RSS before ${rssBefore.toFixed(0)} MB, after ${rssAfter.toFixed(0)} MB, peak ${rssPeak.toFixed(0)} MB (${library.saved} articles)`,
    );
    if (engine.name === 'postgres') {
      const nodes = await twoNodesAgainstOne(server, serverEnv, `/api/articles/${articleId}`, readerToken);
      recordFigure({
        side: 'server',
        figure: 'GET /api/articles/{id}, two nodes / one node (info)',
        size,
        value: `${nodes.ratio.toFixed(2)}x`,
        target: 'none',
        ok: nodes.errors === 0,
      });
      console.log(
        `      one node ${Math.round(nodes.oneRps)} rps; two nodes ${Math.round(nodes.twoRps)} rps ` +
          `(${nodes.cpuPerRequestUs.map((us) => `${us.toFixed(0)} µs`).join(' and ')} CPU per request); ` +
          `load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`,
      );
    }
  } finally {
    await server.stop();
  }
}

/**
 * Reading one article through two server processes on the one PostgreSQL, against through one: the same
 * number of connections in all, split between the nodes. On a machine of two cores shared by the nodes,
 * PostgreSQL and the load generator the second node can only add what is idle; the figure is for reading
 * beside the CPU per request (which shows a node's cost doesn't grow with a second one).
 */
async function twoNodesAgainstOne(
  first: RunningProcess,
  env: Record<string, string>,
  path: string,
  token: string,
) {
  const headers = { authorization: `Bearer ${token}` };
  const second = await startProcess('bench/support/timed-server.ts', env);
  try {
    await throughput(second, `${second.url}${path}`, 2, headers); // warm-up
    const one = await throughput(first, `${first.url}${path}`, 5, headers, 20);
    const both = await Promise.all(
      [first, second].map((node) => throughput(node, `${node.url}${path}`, 5, headers, 10)),
    );
    const twoRps = both.reduce((sum, node) => sum + node.rps, 0);
    return {
      oneRps: one.rps,
      twoRps,
      ratio: twoRps / one.rps,
      cpuPerRequestUs: both.map((node) => node.cpuPerRequestMs * 1000),
      errors: one.errors + both.reduce((sum, node) => sum + node.errors, 0),
    };
  } finally {
    await second.stop();
  }
}

async function measureEngine(engine: BenchEngine, dataDir: string) {
  const library = await engine.seed(async (db) => {
    const reader = await registerUser(db, {
      email: 'reader@bench.test',
      password: PASSWORD,
      username: 'reader',
    });
    const lister = await registerUser(db, {
      email: 'lister@bench.test',
      password: PASSWORD,
      username: 'lister',
    });
    await growLibrary(db, benchLibrary(lister.id, LIST_SEED), LIST_ARTICLES);
    return benchLibrary(reader.id, LIBRARY_SEED);
  });
  let articleId = '';
  for (const size of benchSizes()) {
    console.log(`\n${engine.label}: seeding the library to ${size.toLocaleString('en')} articles...`);
    const started = performance.now();
    const megabytes = await engine.seed(async (db) => {
      await growLibrary(db, library, size, (saved) => {
        if (saved % 10_000 === 0) console.log(`  ${saved.toLocaleString('en')}`);
      });
      articleId ||= await typicalArticle(db, library);
      return engine.sizeMb(db);
    });
    console.log(
      `Seeded in ${((performance.now() - started) / 1000).toFixed(1)} s (database ${(megabytes / 1024).toFixed(2)} GB)\n`,
    );
    await measure(engine, size, dataDir, library, articleId);
  }
}

async function main() {
  for (const name of benchEngineNames()) {
    const dataDir = mkdtempSync(join(tmpdir(), 'lectern-bench-'));
    const engine = await openBenchEngine(name, dataDir);
    try {
      await measureEngine(engine, dataDir);
    } finally {
      await engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

await main();
process.exit(anyMissed() ? 1 : 0);
