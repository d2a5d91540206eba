// Issue 14, server part: a saved article's images are archived on the server, served only to whoever may
// see the article, and freed with it. Real server, real SQLite, real HTTP; the publisher is a fixture site.
import { sql } from 'drizzle-orm';
import { openServerDatabase } from '../../src/testing/test-database';
import { connect, createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/start-test-server';
import { startTestFileStore, type TestFileStore, type TestFileStoreKind } from '../support/test-file-store';
import { ApiClient, getBytes, signUp } from '../support/api-client';
import {
  FIXTURE_IMAGES,
  IMAGE_ARTICLE_FILES,
  imageArticlePage,
  startFixtureSite,
  type FixtureSite,
} from '../support/fixture-site';

const ARCHIVED = /^\/api\/images\/[0-9a-f-]{36}\/[0-9a-f]{64}\.(png|jpg|gif|webp|avif|svg)$/;
/** An image that stalls is given up after this long (IMAGE_FETCH_TIMEOUT_MS). */
const IMAGE_TIMEOUT_MS = 1_500;

let server: TestServer;
/** The data folder, or S3 (image-archive-s3.test.ts). */
let files: TestFileStore;
let site: FixtureSite;
/** The publisher of the first test, which goes away once its images are in. */
let doomedSite: FixtureSite;
let api: ApiClient;
/** A listener on a private address that no save may reach: it counts the connections it gets. */
let privateListener: Server;
let privateConnections = 0;
let privateImage: string;

/** The image archiving tests, on a server keeping its files in the data folder or in S3. */
export function describeImageArchive(store: TestFileStoreKind): void {
  beforeAll(async () => {
    privateListener = createServer((socket) => {
      privateConnections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => privateListener.listen(0, '127.0.0.2', resolve));
    const port = (privateListener.address() as { port: number }).port;
    privateImage = `http://127.0.0.2:${port}/camera.png`;
    // The listener does count: one direct connection, then the count starts from zero.
    await new Promise((resolve) => connect(port, '127.0.0.2').on('close', resolve).on('error', resolve));
    expect(privateConnections).toBe(1);
    privateConnections = 0;
    site = await startFixtureSite(
      {
        '/estuary': imageArticlePage(privateImage),
        '/estuary-again': imageArticlePage(privateImage).replace('Birds of the Estuary', 'The Estuary Again'),
        '/slow-images': imageArticlePage(privateImage).replace('/img/heron.png', '/img/stall.png'),
      },
      {},
      IMAGE_ARTICLE_FILES,
    );
    doomedSite = await startFixtureSite(
      { '/estuary': imageArticlePage(privateImage) },
      {},
      IMAGE_ARTICLE_FILES,
    );
    files = await startTestFileStore(store);
    server = await startTestServer({
      env: {
        ...files.env,
        FETCH_ALLOWED_ORIGINS: `${site.origin},${doomedSite.origin}`,
        IMAGE_FETCH_TIMEOUT_MS: String(IMAGE_TIMEOUT_MS),
      },
    });
    api = new ApiClient(server.url);
  });

  afterAll(async () => {
    await server?.close();
    await site?.close();
    await doomedSite?.close(); // closed by the first test already, unless it failed first
    await new Promise((resolve) => privateListener.close(resolve));
    await files?.close();
  });

  interface FeedArticle {
    id: string;
    image_url: string | null;
    content: string | null;
    images_pending: boolean;
  }

  /** The article as the change feed last carried it, once images_pending is false there. */
  async function articleOnceImagesAreIn(client: ApiClient, articleId: string, withinMs = 20_000) {
    const until = Date.now() + withinMs;
    for (;;) {
      let cursor = 0;
      let latest: FeedArticle | undefined;
      for (;;) {
        const feed = await client.get(`/sync/changes?since=${cursor}&limit=500`);
        expect(feed.status).toBe(200);
        for (const change of feed.body.changes as { entity: string; id: string; row: FeedArticle }[])
          if (change.entity === 'article' && change.id === articleId) latest = change.row;
        cursor = feed.body.cursor;
        if (!feed.body.hasMore) break;
      }
      if (latest && !latest.images_pending) return latest;
      if (Date.now() > until) throw new Error(`images of ${articleId} still pending`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  function imageAddresses(content: string): string[] {
    return [...content.matchAll(/<img[^>]*\ssrc="([^"]*)"/g)].map((match) => match[1]!);
  }

  /** The names of the archived image files the server keeps (in DATA_DIR/images/ or the bucket). */
  async function storedFiles(): Promise<string[]> {
    return (await files.keys(server.dataDir, 'images/')).map((key) => key.split('/').pop()!);
  }

  const rawGet = (path: string, token?: string) => getBytes(server.url, path, token);

  describe('images archived with the article', () => {
    it('saves at once, then archives the good images, drops the bad ones and never reaches a private address', async () => {
      const { client, token } = await signUp(api);
      const saved = await client.post('/articles', { url: doomedSite.url('/estuary') });
      expect(saved.status).toBe(201);
      expect(saved.body.article.images_pending).toBe(true);
      const id = saved.body.article.id as string;

      const article = await articleOnceImagesAreIn(client, id);
      expect(article.image_url).toMatch(ARCHIVED);
      const addresses = imageAddresses(article.content!);
      // PNG, JPEG, WebP and the sanitised SVG; the 404, the oversized one and the private one are gone.
      expect(addresses).toHaveLength(4);
      for (const address of addresses) expect(address).toMatch(ARCHIVED);
      expect(article.content).not.toContain(doomedSite.origin);
      expect(article.content).not.toContain('127.0.0.2');
      expect(article.content).not.toContain('srcset');
      for (const alt of ['Missing goose', 'Huge photo', 'Private camera'])
        expect(article.content).not.toContain(alt);
      expect(privateConnections).toBe(0);

      // GET /articles/{id} answers the same rewritten article.
      const read = await client.get(`/articles/${id}`);
      expect(read.body.article).toMatchObject({ image_url: article.image_url, images_pending: false });

      // The publisher goes away: every image still shows, byte for byte, with its headers.
      await doomedSite.close();
      const expected: Record<string, Buffer> = {
        png: FIXTURE_IMAGES.png,
        jpg: FIXTURE_IMAGES.jpeg,
        webp: FIXTURE_IMAGES.webp,
      };
      const lead = await rawGet(article.image_url!, token);
      expect(lead.status).toBe(200);
      expect(lead.bytes.equals(FIXTURE_IMAGES.lead)).toBe(true);
      expect(lead.headers.get('content-type')).toBe('image/png');
      expect(lead.headers.get('x-content-type-options')).toBe('nosniff');
      expect(lead.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      for (const address of addresses) {
        const image = await rawGet(address, token);
        expect(image.status, address).toBe(200);
        const ext = address.split('.').pop()!;
        if (ext === 'svg') {
          const svg = image.bytes.toString('utf8');
          expect(svg).toContain('<rect');
          for (const hostile of [
            '<script',
            'onload',
            'onclick',
            'foreignObject',
            'tracker.example',
            'fetch(',
          ])
            expect(svg).not.toContain(hostile);
          expect(image.headers.get('content-type')).toBe('image/svg+xml');
          expect(image.headers.get('content-security-policy')).toBe(
            "default-src 'none'; style-src 'unsafe-inline'; sandbox",
          );
        } else {
          expect(image.bytes.equals(expected[ext]!), address).toBe(true);
        }
      }
      // Stored once per content hash: lead, PNG, JPEG, WebP, SVG.
      expect((await storedFiles()).sort()).toHaveLength(5);
      await client.delete(`/articles/${id}`);
      expect(await storedFiles()).toEqual([]);
    });

    it("shows a private article's images to its owner only, and a public list's cards to anyone", async () => {
      const owner = await signUp(api);
      const other = await signUp(api);
      const saved = await owner.client.post('/articles', { url: site.url('/estuary') });
      const id = saved.body.article.id as string;
      const article = await articleOnceImagesAreIn(owner.client, id);
      const lead = article.image_url!;
      expect(lead).toMatch(ARCHIVED);

      expect((await rawGet(lead, owner.token)).status).toBe(200);
      // Another user, an anonymous visitor, a bad token: all 404, as for an image that doesn't exist.
      expect((await rawGet(lead, other.token)).status).toBe(404);
      expect((await rawGet(lead)).status).toBe(404);
      expect((await rawGet(lead, 'not-a-token')).status).toBe(404);
      // Guessing: the same hash under another user's article, or an unknown hash, or no file at all.
      const theirs = await other.client.post('/articles', { url: site.url('/estuary-again') });
      const theirId = theirs.body.article.id as string;
      const hashFile = lead.split('/').pop()!;
      expect((await rawGet(`/api/images/${theirId}/${hashFile}`, other.token)).status).toBe(404);
      expect((await rawGet(`/api/images/${id}/${'0'.repeat(64)}.png`, owner.token)).status).toBe(404);
      expect((await rawGet(`/api/images/${id}/`, owner.token)).status).toBe(404);
      expect((await rawGet(`/api/images/${id}`, owner.token)).status).toBe(404);
      expect((await rawGet(`/api/images/${id}/..%2F..%2Flectern.sqlite`, owner.token)).status).toBe(404);

      // In a public list, its card shows the archived image, which loads without any token.
      const list = await owner.client.post('/lists', { name: 'Estuary walks', isPublic: true });
      expect(list.status).toBe(201);
      await owner.client.post(`/lists/${list.body.list.id}/articles`, { articleId: id });
      const page = await api.get(`/lists/public/${list.body.list.share_id}`);
      expect(page.status).toBe(200);
      expect(page.body.articles[0].image_url).toBe(lead);
      const anonymous = await rawGet(page.body.articles[0].image_url);
      expect(anonymous.status).toBe(200);
      expect(anonymous.bytes.equals(FIXTURE_IMAGES.lead)).toBe(true);
      expect(anonymous.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      for (const address of imageAddresses(article.content!))
        expect((await rawGet(address)).status).toBe(200);
      // Made private again: anonymous visitors get 404 once more.
      await owner.client.put(`/lists/${list.body.list.id}`, { isPublic: false });
      expect((await rawGet(lead)).status).toBe(404);
      await owner.client.delete('/auth/account');
      await other.client.delete('/auth/account');
    });

    it('frees an image only when no other article uses it, and every image with the account', async () => {
      const { client } = await signUp(api);
      const first = await client.post('/articles', { url: site.url('/estuary') });
      const second = await client.post('/articles', { url: site.url('/estuary-again') });
      const firstArticle = await articleOnceImagesAreIn(client, first.body.article.id);
      const secondArticle = await articleOnceImagesAreIn(client, second.body.article.id);
      // Counted by name: an earlier test's job may still be freeing its own files meanwhile.
      const fileOf = (address: string) => address.split('/').pop()!;
      const ours = new Set(
        [firstArticle, secondArticle].flatMap((article) =>
          [article.image_url!, ...imageAddresses(article.content!)].map(fileOf),
        ),
      );
      const oursStored = async () => (await storedFiles()).filter((name) => ours.has(name));
      // The same bytes under both articles: one file each.
      expect(ours.size).toBe(5);
      expect(await oursStored()).toHaveLength(5);
      await client.delete(`/articles/${first.body.article.id}`);
      expect(await oursStored()).toHaveLength(5);
      // The second article still shows them all.
      for (const address of [secondArticle.image_url!, ...imageAddresses(secondArticle.content!)])
        expect((await client.get(address.replace('/api', ''))).status).toBe(200);
      expect((await client.get(firstArticle.image_url!.replace('/api', ''))).status).toBe(404);
      await client.delete('/auth/account');
      expect(await oursStored()).toEqual([]);
      expect(await storedFiles()).toEqual([]);
    });

    it('answers a save at once when an image server stalls, and settles the images once it is given up', async () => {
      const { client } = await signUp(api);
      const started = Date.now();
      const saved = await client.post('/articles', { url: site.url('/slow-images') });
      const answeredIn = Date.now() - started;
      expect(saved.status).toBe(201);
      expect(saved.body.article.images_pending).toBe(true);
      // The answer doesn't wait for any image: far below the stalled image's time limit.
      expect(answeredIn).toBeLessThan(IMAGE_TIMEOUT_MS);
      const article = await articleOnceImagesAreIn(client, saved.body.article.id);
      const settledIn = Date.now() - started;
      expect(settledIn).toBeGreaterThanOrEqual(IMAGE_TIMEOUT_MS);
      expect(article.content).not.toContain('stall.png');
      expect(imageAddresses(article.content!)).toHaveLength(3); // JPEG, WebP, SVG; the stalled PNG is gone
      console.info(`slow image server: save answered in ${answeredIn} ms, images settled in ${settledIn} ms`);
      await client.delete('/auth/account');
    });

    it('archives the images of a page sent with the save (html), resolved against its address', async () => {
      const { client } = await signUp(api);
      const saved = await client.post('/articles', {
        url: site.url('/given/estuary'),
        html: imageArticlePage(privateImage),
      });
      expect(saved.status).toBe(201);
      expect(saved.body.article.images_pending).toBe(true);
      const article = await articleOnceImagesAreIn(client, saved.body.article.id);
      expect(article.image_url).toMatch(ARCHIVED);
      expect(imageAddresses(article.content!)).toHaveLength(4);
      expect(article.content).not.toContain(site.origin);
      expect(privateConnections).toBe(0);
      await client.delete('/auth/account');
    });

    it('archives the images of an imported article once its page is fetched', async () => {
      const { client } = await signUp(api);
      const form = new FormData();
      form.append(
        'file',
        new Blob([`title,url,time_added,tags,status\nBirds,${site.url('/estuary')},1577836800,,unread\n`]),
        'export.csv',
      );
      const upload = await client.post('/imports', form);
      expect(upload.status, JSON.stringify(upload.body)).toBe(202);
      let articleId: string | undefined;
      for (let tries = 0; tries < 200 && !articleId; tries += 1) {
        const list = await client.get('/articles');
        articleId = list.body.articles.find((row: { fetch_state?: string }) => !row.fetch_state)?.id;
        if (!articleId) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const article = await articleOnceImagesAreIn(client, articleId!);
      expect(article.image_url).toMatch(ARCHIVED);
      expect(imageAddresses(article.content!)).toHaveLength(4);
      for (const address of imageAddresses(article.content!)) expect(address).toMatch(ARCHIVED);
      await client.delete('/auth/account');
    });
  });

  describe('articles saved before images were archived', () => {
    it('get their images archived once, by a background job on start', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'lectern-image-backfill-'));
      // Files of its own: the suite's server, on its own database, may still be freeing the same images
      // (the same bytes, so the same keys) for the accounts the tests before deleted, which in a shared
      // bucket took this server's copies too.
      const ownFiles = await startTestFileStore(store);
      const env = {
        ...ownFiles.env,
        FETCH_ALLOWED_ORIGINS: site.origin,
        IMAGE_FETCH_TIMEOUT_MS: String(IMAGE_TIMEOUT_MS),
      };
      try {
        let restarted = await startTestServer({ env, dataDir });
        const { client, user } = await signUp(new ApiClient(restarted.url));
        await restarted.close();
        // An article as an older server stored it: the publisher's addresses, no images_pending, no marker.
        const stored = await openServerDatabase(dataDir);
        const id = '0b7c3c2e-5d1f-4a8e-9c3b-2f6a1d4e5b70';
        const at = new Date().toISOString();
        const content = `<p>Old text</p><img src="${site.url('/img/heron.png')}" alt="heron"><img src="${site.url('/img/missing.png')}">`;
        await stored.run(sql`INSERT INTO articles (id, user_id, url, normalized_url, title, image_url, article_type,
             content, created_at, updated_at) VALUES (${id}, ${user.id}, ${site.url('/old')}, ${site.url('/old')},
             'Old article', ${site.url('/img/lead.png')}, 'web', ${content}, ${at}, ${at})`);
        await stored.run(sql`DELETE FROM server_markers`);
        await stored.close();

        restarted = await startTestServer({ env, dataDir });
        const again = new ApiClient(restarted.url, client.token);
        const article = await articleOnceImagesAreIn(again, id);
        expect(article.image_url).toMatch(ARCHIVED);
        expect(imageAddresses(article.content!)).toEqual([expect.stringMatching(ARCHIVED)]);
        expect((await again.get(article.image_url!.replace('/api', ''))).status).toBe(200);
        await restarted.close();

        // Once: the marker stays, and a later start queues nothing.
        const check = await openServerDatabase(dataDir);
        expect(await check.all(sql`SELECT name FROM server_markers ORDER BY name`)).toEqual([
          { name: 'article-cards-backfill' },
          { name: 'image-archive-backfill' },
        ]);
        expect(
          await check.get(sql`SELECT count(*) AS n FROM jobs WHERE kind = 'archive-article-images'`),
        ).toEqual({
          n: 1,
        });
        await check.close();
        restarted = await startTestServer({ env, dataDir });
        await restarted.close();
        const last = await openServerDatabase(dataDir);
        expect(await last.get(sql`SELECT count(*) AS n FROM jobs WHERE status = 'queued'`)).toEqual({ n: 0 });
        await last.close();
      } finally {
        await ownFiles.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}
