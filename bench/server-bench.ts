// Issue 2's figures: API read throughput against bare Fastify, search p95 over 50,000 articles, the change
// feed from cursor 0, and the server's RSS after the load. Run: npx tsx bench/server-bench.ts
import type { ArticleSummary } from '@lectern/shared-schema';
import autocannon from 'autocannon';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../sync-server/src/db/connection';
import { createHighlight } from '../sync-server/src/services/highlights';
import { registerUser } from '../sync-server/src/services/users';
import { percentile, report, startProcess } from './support/server-process';
import { seedArticles, seedDatabase } from './support/seed-library';
import { proseSampler, seededRandom, vocabulary, zipfSampler } from './support/seed-text';

const READ_ARTICLES = 5_000;
const SEARCH_ARTICLES = 50_000;
const PASSWORD = 'benchmark password';
const VOCABULARY_SIZE = 30_000;
/** The most frequent words are like 'the' and 'of': nobody searches for them. */
const STOPWORDS = 150;

/** `count` articles of about `bytes` of prose each, written with the words of `seed`. */
function seedProse(db: Db, userId: string, count: number, bytes: number, seed: number): string[] {
  return seedArticles(db, userId, {
    count,
    sample: proseSampler(seed, VOCABULARY_SIZE),
    sizes: { text: bytes, title: 40, description: 120, author: 12 },
    batch: 2_000,
  });
}

async function login(url: string, email: string): Promise<string> {
  const answer = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  return ((await answer.json()) as { token: string }).token;
}

async function throughput(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: 10, duration: 5, headers });
  return { rps: result.requests.average, errors: result.errors + result.non2xx };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-bench-'));
  try {
    console.log(`Seeding ${READ_ARTICLES} + ${SEARCH_ARTICLES} articles (about 3 KB of text each)...`);
    const seedStarted = performance.now();
    const { readIds, searchWords } = await seedDatabase(dataDir, async (db) => {
      const reader = await registerUser(db, {
        email: 'reader@bench.test',
        password: PASSWORD,
        username: 'reader',
      });
      const searcher = await registerUser(db, {
        email: 'searcher@bench.test',
        password: PASSWORD,
        username: 'searcher',
      });
      const readIds = seedProse(db, reader.id, READ_ARTICLES, 3_000, 1);
      // A highlight on each of the reader's articles: the compacted feed then holds 10,000 changes
      // (each article's latest state and each highlight).
      db.transaction(() => {
        for (const id of readIds) {
          createHighlight(db, reader.id, {
            articleId: id,
            highlightedText: 'a passage worth keeping',
            positionStart: 10,
            positionEnd: 33,
          });
        }
      });
      seedProse(db, searcher.id, SEARCH_ARTICLES, 3_000, 2);
      // The same vocabulary the searcher's articles were written with (same seed), common words left out.
      return { readIds, searchWords: vocabulary(VOCABULARY_SIZE, seededRandom(2)) };
    });
    console.log(`Seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s\n`);

    const server = await startProcess('sync-server/src/main.ts', { DATA_DIR: dataDir });
    const readerToken = await login(server.url, 'reader@bench.test');
    const searcherToken = await login(server.url, 'searcher@bench.test');
    const auth = (token: string) => ({ authorization: `Bearer ${token}` });

    const articleUrl = `${server.url}/api/articles/${readIds[Math.floor(readIds.length / 2)]}`;
    const sample = await (await fetch(articleUrl, { headers: auth(readerToken) })).text();
    const payloadFile = join(dataDir, 'bare-payload.json');
    writeFileSync(payloadFile, sample);
    const bare = await startProcess('bench/support/bare-fastify.ts', { BARE_PAYLOAD_FILE: payloadFile });
    await throughput(`${bare.url}/api/bare`); // warm-up
    const bareResult = await throughput(`${bare.url}/api/bare`);
    await bare.stop();
    await throughput(articleUrl, auth(readerToken));
    const apiResult = await throughput(articleUrl, auth(readerToken));
    const ratio = apiResult.rps / bareResult.rps;

    const random = seededRandom(99);
    const sampleWord = zipfSampler(searchWords, random);
    const searchable = new Set(searchWords.slice(STOPWORDS));
    const pick = () => {
      for (;;) {
        const word = sampleWord();
        if (searchable.has(word)) return word;
      }
    };
    const latencies: number[] = [];
    let found = 0;
    for (let i = 0; i < 300; i += 1) {
      // A third whole words, a third two words with the second being typed, a third a word being typed.
      const query =
        i % 3 === 0 ? pick() : i % 3 === 1 ? `${pick()} ${pick().slice(0, 3)}` : pick().slice(0, 4);
      const started = performance.now();
      const answer = await fetch(`${server.url}/api/articles/search?q=${encodeURIComponent(query)}`, {
        headers: auth(searcherToken),
      });
      const body = (await answer.json()) as { articles: ArticleSummary[] };
      latencies.push(performance.now() - started);
      found += body.articles.length;
    }
    const p95 = percentile(latencies, 95);

    const feedStarted = performance.now();
    let cursor = 0;
    let changes = 0;
    for (;;) {
      const answer = await fetch(`${server.url}/api/sync/changes?since=${cursor}&limit=1000`, {
        headers: auth(readerToken),
      });
      const page = (await answer.json()) as { cursor: number; hasMore: boolean; changes: unknown[] };
      changes += page.changes.length;
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    const feedMs = performance.now() - feedStarted;
    const rss = server.rssMb();
    await server.stop();

    console.log('Sync server (npm run bench: bench/server-bench.ts)');
    report(
      `GET /api/articles/{id} vs bare Fastify (${READ_ARTICLES} articles)`,
      `${Math.round(apiResult.rps)} / ${Math.round(bareResult.rps)} rps = ${(ratio * 100).toFixed(0)}%`,
      '>= 50%',
      ratio >= 0.5 && apiResult.errors === 0,
    );
    report(
      `search p95 over ${SEARCH_ARTICLES} articles (300 queries, ${found} hits)`,
      `${p95.toFixed(1)} ms`,
      '<= 25 ms',
      p95 <= 25,
    );
    report(
      `change feed of ${changes} changes from cursor 0`,
      `${feedMs.toFixed(0)} ms`,
      '<= 1000 ms',
      feedMs <= 1000 && changes >= 10_000,
    );
    report('server RSS after the load', `${rss.toFixed(0)} MB`, '<= 300 MB', rss <= 300);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
