// Issue 15, files: with S3_BUCKET set, screenshots and archived images live in S3-compatible storage (here
// s3rver from the npm registry, on a free port and a temporary folder) and nothing in DATA_DIR. Real server,
// real SQLite, real HTTP: the same answers, headers and deletions as on the data folder.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../src/testing/local-s3';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, getBytes, imagesSettled, signUp } from './support/api-client';
import {
  FIXTURE_IMAGES,
  IMAGE_ARTICLE_FILES,
  startFixtureSite,
  type FixtureSite,
} from './support/fixture-site';
import { noisePng } from './support/noise-png';

const ARCHIVED = /^\/api\/images\/([0-9a-f-]{36})\/([0-9a-f]{64})\.(png|jpg|gif|webp|avif|svg)$/;
const IMMUTABLE = 'max-age=31536000, immutable';

/** A page with a lead image and four body images the server keeps (PNG, JPEG, WebP, SVG). */
const BIRDS = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Birds of the Estuary</title>
<meta property="og:image" content="/img/lead.png"></head><body><article><h1>Birds of the Estuary</h1>
<p>Herons and egrets stand in the shallows at dawn, waiting for the tide to bring the small fish in.</p>
<figure><img src="/img/heron.png" alt="PNG heron"></figure>
<p>Curlews probe the mudflats with their long bills, and their call carries across the whole bay.</p>
<figure><img src="/img/curlew.jpg" alt="JPEG curlew"></figure>
<p>Terns arrive in summer and dive for sand eels just beyond the line of breaking waves.</p>
<figure><img src="/img/tern.webp" alt="WebP tern"></figure>
<p>The tide tables at the warden's hut say when the causeway is safe to cross on foot.</p>
<figure><img src="/img/map.svg" alt="SVG map"></figure>
<p>Visitors are asked to keep to the paths and to leave the nesting grounds undisturbed.</p>
</article></body></html>`;

let s3: LocalS3;
let site: FixtureSite;
let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  s3 = await startLocalS3();
  site = await startFixtureSite(
    { '/birds': BIRDS, '/birds-again': BIRDS.replaceAll('Birds of the Estuary', 'The Estuary Again') },
    {},
    IMAGE_ARTICLE_FILES,
  );
  server = await startTestServer({
    // Retries of an archiving job come quickly (0.3 s, then doubling): the S3 outage test waits for them.
    env: { ...s3.env, FETCH_ALLOWED_ORIGINS: site.origin, JOB_RETRY_BASE_MS: '300' },
  });
  api = new ApiClient(server.url);
});

afterAll(async () => {
  await server?.close();
  await site?.close();
  await s3?.close();
});

const rawGet = (path: string, token?: string) => getBytes(server.url, path, token);

function uploadScreenshot(client: ApiClient, image: Buffer) {
  const form = new FormData();
  form.append('screenshot', new Blob([image], { type: 'image/png' }), 'shot.png');
  return client.request('POST', '/articles/screenshot', { body: form });
}

/** Saves the birds page and answers the article once its images are archived. */
async function saveBirds(client: ApiClient) {
  const saved = await client.post('/articles', { url: site.url('/birds') });
  expect(saved.status).toBe(201);
  const article = await imagesSettled(client, saved.body.article.id);
  const addresses = [...(article.content as string).matchAll(/<img[^>]*\ssrc="([^"]*)"/g)].map((m) => m[1]!);
  return { article, addresses: [article.image_url as string, ...addresses] };
}

/** The bucket key of an archived image's address: images/ab/<hash>.<ext>, as under DATA_DIR. */
function keyOf(address: string): string {
  const [, , hash = '', ext = ''] = ARCHIVED.exec(address) ?? [];
  return `images/${hash.slice(0, 2)}/${hash}.${ext}`;
}

/**
 * The bucket's keys under `prefix` once they are `expected`, or as they are after 5 s: an archiving job
 * that was still writing its images back after its commit frees them itself once it sees them unused.
 */
async function keysSettled(prefix: string, expected: string[]): Promise<string[]> {
  const until = Date.now() + 5_000;
  for (;;) {
    const keys = await s3.keys(prefix);
    if (JSON.stringify(keys) === JSON.stringify(expected) || Date.now() > until) return keys;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the server wrote in its data folder besides the database. */
const localFiles = () => readdirSync(server.dataDir).filter((name) => !name.startsWith('lectern.sqlite'));

describe('files in S3 (S3_BUCKET)', () => {
  it('keeps an article’s images and a screenshot in the bucket, serves them as before, and frees them with the account', async () => {
    const owner = await signUp(api);
    const { article, addresses } = await saveBirds(owner.client);
    expect(addresses).toHaveLength(5);
    for (const address of addresses) expect(address).toMatch(ARCHIVED);
    expect(await s3.keys('images/')).toEqual(addresses.map(keyOf).sort());

    // Read back over HTTP byte for byte, with the headers the data folder's images have.
    const lead = await rawGet(article.image_url, owner.token);
    expect(lead.status).toBe(200);
    expect(lead.bytes.equals(FIXTURE_IMAGES.lead)).toBe(true);
    expect(lead.headers.get('content-type')).toBe('image/png');
    expect(lead.headers.get('x-content-type-options')).toBe('nosniff');
    expect(lead.headers.get('cache-control')).toBe(`private, ${IMMUTABLE}`);
    expect(lead.headers.get('etag')).toBeNull();
    const expected: Record<string, Buffer> = {
      png: FIXTURE_IMAGES.png,
      jpg: FIXTURE_IMAGES.jpeg,
      webp: FIXTURE_IMAGES.webp,
    };
    for (const address of addresses.slice(1)) {
      const image = await rawGet(address, owner.token);
      expect(image.status, address).toBe(200);
      const ext = address.split('.').pop()!;
      if (ext === 'svg') {
        expect(image.headers.get('content-type')).toBe('image/svg+xml');
        expect(image.headers.get('content-security-policy')).toBe(
          "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        );
        expect(image.bytes.toString('utf8')).toContain('<rect');
        expect(image.bytes.toString('utf8')).not.toContain('<script');
      } else {
        expect(image.bytes.equals(expected[ext]!), address).toBe(true);
      }
    }

    // A screenshot: kept under uploads/<user>/<article>.png, read back by its owner only.
    const shot = noisePng(64, 48, 11);
    const uploaded = await uploadScreenshot(owner.client, shot);
    expect(uploaded.status).toBe(201);
    const screenshot = uploaded.body.article;
    expect(await s3.keys(`uploads/${owner.user.id}/`)).toEqual([
      `uploads/${owner.user.id}/${screenshot.id}.png`,
    ]);
    const image = await rawGet(screenshot.screenshot_url, owner.token);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toBe('private, no-store');
    expect(image.bytes.equals(shot)).toBe(true);

    // Someone else, or no one: 404 for both, as for files that don't exist.
    const stranger = await signUp(api);
    expect((await rawGet(screenshot.screenshot_url, stranger.token)).status).toBe(404);
    expect((await rawGet(article.image_url, stranger.token)).status).toBe(404);
    expect((await rawGet(article.image_url)).status).toBe(404);

    // In a public list, anyone reads the card's image, which shared caches may keep.
    const list = await owner.client.post('/lists', { name: 'Estuary walks', isPublic: true });
    await owner.client.post(`/lists/${list.body.list.id}/articles`, { articleId: article.id });
    const card = await rawGet(article.image_url);
    expect(card.status).toBe(200);
    expect(card.headers.get('cache-control')).toBe(`public, ${IMMUTABLE}`);
    expect(card.bytes.equals(FIXTURE_IMAGES.lead)).toBe(true);

    // Nothing of it in the data folder: no uploads/, no images/.
    expect(localFiles()).toEqual([]);

    // Deleting the screenshot article deletes its object.
    expect((await owner.client.delete(`/articles/${screenshot.id}`)).status).toBe(204);
    expect(await s3.keys(`uploads/${owner.user.id}/`)).toEqual([]);
    expect((await rawGet(screenshot.screenshot_url, owner.token)).status).toBe(404);

    // Deleting the account takes the rest: another screenshot and every image no one else uses.
    expect((await uploadScreenshot(owner.client, noisePng(64, 48, 12))).status).toBe(201);
    expect(await s3.keys(`uploads/${owner.user.id}/`)).toHaveLength(1);
    expect((await owner.client.delete('/auth/account')).status).toBe(204);
    expect(await s3.keys(`uploads/${owner.user.id}/`)).toEqual([]);
    expect(await keysSettled('images/', [])).toEqual([]);
    expect(localFiles()).toEqual([]);
  }, 60_000);

  it('keeps an image two readers saved until the last of them goes', async () => {
    const ann = await signUp(api);
    const bob = await signUp(api);
    const hers = await saveBirds(ann.client);
    const his = await saveBirds(bob.client);
    // Stored once per content hash: the same five objects for both.
    expect(await s3.keys('images/')).toEqual(hers.addresses.map(keyOf).sort());
    expect(his.addresses.map(keyOf).sort()).toEqual(hers.addresses.map(keyOf).sort());

    expect((await ann.client.delete('/auth/account')).status).toBe(204);
    expect(await s3.keys('images/')).toHaveLength(5);
    const lead = await rawGet(his.article.image_url, bob.token);
    expect(lead.status).toBe(200);
    expect(lead.bytes.equals(FIXTURE_IMAGES.lead)).toBe(true);

    expect((await bob.client.delete(`/articles/${his.article.id}`)).status).toBe(204);
    expect(await keysSettled('images/', [])).toEqual([]);
    expect(await s3.keys('uploads/')).toEqual([]);
    expect(localFiles()).toEqual([]);
  }, 60_000);

  it('reaches nothing else in the bucket or the data folder with a hostile file name', async () => {
    const owner = await signUp(api);
    const { article } = await saveBirds(owner.client);
    for (const path of [
      `/api/images/${article.id}/..%2F..%2Flectern.sqlite`,
      `/api/images/${article.id}/..%2Fuploads%2F${owner.user.id}`,
      `/api/images/..%2F..%2Fjwt-secret/x.png`,
      `/api/articles/..%2Fuploads/screenshot`,
      `/api/articles/${encodeURIComponent(`../../images/${article.id}`)}/screenshot`,
    ])
      expect((await rawGet(path, owner.token)).status, path).toBe(404);
    expect((await owner.client.delete('/auth/account')).status).toBe(204);
    expect(await keysSettled('images/', [])).toEqual([]);
  }, 60_000);

  it('answers 503, not 404, while S3 is down, the rest of the server goes on, and a save archives its images once S3 is back', async () => {
    const owner = await signUp(api);
    const { article } = await saveBirds(owner.client);
    await s3.stop();

    const started = performance.now();
    const image = await fetch(`${server.url}${article.image_url}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const took = performance.now() - started;
    console.log(`archived image with S3 down: ${image.status} after ${took.toFixed(0)} ms`);
    expect(image.status).toBe(503);
    expect(image.headers.get('retry-after')).toBe('30');
    expect(await image.json()).toEqual({ error: SERVER_ERRORS.serverBusy });
    expect(took).toBeLessThan(5_000);

    const health = performance.now();
    expect((await api.get('/health')).status).toBe(200);
    console.log(`GET /api/health with S3 down: ${(performance.now() - health).toFixed(0)} ms`);
    const read = await owner.client.get(`/articles/${article.id}`);
    expect(read.status).toBe(200);
    expect(read.body.article.image_url).toBe(article.image_url);

    // A page saved meanwhile is stored at once; its images wait for S3 instead of being dropped.
    const saved = await owner.client.post('/articles', { url: site.url('/birds-again') });
    expect(saved.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 800));
    const waiting = await owner.client.get(`/articles/${saved.body.article.id}`);
    expect(waiting.body.article.images_pending).toBe(true);
    expect(waiting.body.article.image_url).toBe(site.url('/img/lead.png'));
    await s3.start();
    const archived = await imagesSettled(owner.client, saved.body.article.id);
    expect(archived.image_url).toMatch(ARCHIVED);
    expect(archived.content.match(/<img /g)).toHaveLength(4);
    const lead = await rawGet(archived.image_url, owner.token);
    expect(lead.status).toBe(200);
    expect(lead.bytes.equals(FIXTURE_IMAGES.lead)).toBe(true);
  }, 60_000);
});
