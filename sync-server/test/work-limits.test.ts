// Bounds on expensive work (issue 10, item 14): a user can't run more than a few saves or uploads at
// once, the server as a whole only so many (429 with Retry-After, at once), and OCR is stopped when it
// runs too long, its worker with it.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, signUp } from './support/api-client';
import { articlePage } from './support/fixture-site';
import { noisePng } from './support/noise-png';

const PAGE_DELAY_MS = 1_500;

/** A site whose every page takes PAGE_DELAY_MS to answer, so saves stay in progress while we look. */
let slowSite: Server;
let slowOrigin: string;

beforeAll(async () => {
  const page = articlePage({
    title: 'A slow page',
    paragraphs: Array.from(
      { length: 4 },
      (_, i) => `Paragraph ${i} of a page that answers slowly, with enough words to read.`,
    ),
  });
  slowSite = createServer((_request, response) => {
    setTimeout(() => response.writeHead(200, { 'content-type': 'text/html' }).end(page), PAGE_DELAY_MS);
  });
  await new Promise<void>((resolve) => slowSite.listen(0, '127.0.0.1', resolve));
  const address = slowSite.address();
  slowOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => slowSite.close(resolve));
});

/** Waits for the server's own count of work in progress, where a fixed pause would guess at the machine. */
async function until(check: () => boolean, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('saves in progress', () => {
  let server: TestServer;
  let api: ApiClient;

  beforeAll(async () => {
    server = await startTestServer({
      env: { FETCH_ALLOWED_ORIGINS: slowOrigin, SAVES_PER_USER: '4', SAVES_IN_FLIGHT: '6' },
    });
    api = new ApiClient(server.url);
    // One save first: the extraction workers start on the first page they read, which on a busy machine
    // takes seconds that belong to no user's turn; the bounds below are about sharing, not start-up.
    const warmUp = await (await signUp(api)).client.post('/articles', { url: `${slowOrigin}/warm-up` });
    expect(warmUp.status).toBe(201);
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After past 4 per user, while another user is still served', async () => {
    const { client: flooder, user: flooding } = await signUp(api);
    const other = (await signUp(api)).client;
    const flood = Array.from({ length: 12 }, (_, i) =>
      flooder.post('/articles', { url: `${slowOrigin}/page?n=${i}` }),
    );
    // Let the flood arrive first.
    await until(() => server.app.workLimits.saves.inProgressFor(flooding.id) === 4);
    const started = Date.now();
    const served = await other.post('/articles', { url: `${slowOrigin}/other` });
    expect(served.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(PAGE_DELAY_MS + 3_000);

    const answers = await Promise.all(flood);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(4);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(8);
    for (const answer of refused) {
      expect(answer.body).toEqual({ error: SERVER_ERRORS.tooManySaves });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await flooder.get('/articles')).body.articles).toHaveLength(4);
    // Slots come back when the work is done.
    expect((await flooder.post('/articles', { url: `${slowOrigin}/page?n=after` })).status).toBe(201);
  }, 30_000);

  it('answers 429 "busy" to anyone once the server has 6 saves in progress', async () => {
    const users = await Promise.all([signUp(api), signUp(api), signUp(api)]);
    const [first, second, third] = users.map((user) => user.client) as [ApiClient, ApiClient, ApiClient];
    const running = [
      ...Array.from({ length: 4 }, (_, i) => first.post('/articles', { url: `${slowOrigin}/busy?n=${i}` })),
      ...Array.from({ length: 2 }, (_, i) => second.post('/articles', { url: `${slowOrigin}/busy?m=${i}` })),
    ];
    await until(() => server.app.workLimits.saves.inProgress === 6);
    const refused = await third.post('/articles', { url: `${slowOrigin}/busy?third` });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: SERVER_ERRORS.serverBusy });
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await Promise.all(running)).map((answer) => answer.status)).toEqual([
      201, 201, 201, 201, 201, 201,
    ]);
    expect((await third.post('/articles', { url: `${slowOrigin}/busy?third` })).status).toBe(201);
  }, 30_000);
});

describe('screenshot uploads and OCR', () => {
  let server: TestServer;
  let api: ApiClient;
  const noise = noisePng(1600, 1200);

  beforeAll(async () => {
    server = await startTestServer({ env: { OCR_TIMEOUT_MS: '400', UPLOADS_PER_USER: '2' } });
    api = new ApiClient(server.url);
  });
  afterAll(() => server.close());

  const upload = (client: ApiClient, image: Buffer) => {
    const form = new FormData();
    form.append('screenshot', new Blob([image], { type: 'image/png' }), 'noise.png');
    return client.request('POST', '/articles/screenshot', { body: form });
  };

  /**
   * An upload whose body stops after its first bytes until `release` is called: the server holds its slot
   * from the request's start to its answer, so it stays in progress however slow or fast the machine is.
   */
  const heldUpload = async (token: string, image: Buffer) => {
    const form = new FormData();
    form.append('screenshot', new Blob([image], { type: 'image/png' }), 'noise.png');
    const encoded = new Response(form);
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 1024));
      },
      async pull(controller) {
        await released;
        controller.enqueue(bytes.subarray(1024));
        controller.close();
      },
    });
    const answer = fetch(`${api.baseUrl}/api/articles/screenshot`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': encoded.headers.get('content-type') ?? '',
      },
      body,
      duplex: 'half',
    } as RequestInit).then(async (response) => ({ status: response.status, body: await response.json() }));
    // Awaited by the test once released; a failure before that is the test's, not an unhandled rejection.
    answer.catch(() => undefined);
    return { answer, release };
  };

  it('refuses a third upload in progress with 429, times OCR out with a clear error, and stops its worker', async () => {
    const { client, token, user } = await signUp(api);
    const started = Date.now();
    const held = [await heldUpload(token, noise), await heldUpload(token, noise)];
    // Released whatever happens, or a failure here would leave both requests open and the server's close
    // waiting for them.
    onTestFinished(() => held.forEach((upload) => upload.release()));
    await until(() => server.app.workLimits.uploads.inProgressFor(user.id) === 2);
    const third = await upload(client, noise);
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ error: SERVER_ERRORS.tooManyUploads });
    expect(third.headers.get('retry-after')).toBeTruthy();
    for (const upload of held) upload.release();
    const uploads = held.map((upload) => upload.answer);

    const answers = await Promise.all(uploads);
    const took = Date.now() - started;
    for (const answer of answers) {
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ error: SERVER_ERRORS.screenshotTimedOut });
    }
    expect((await client.get('/articles')).body.articles).toEqual([]);

    // The stopped worker burns no more CPU: this process (server and OCR threads) sits nearly idle.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const used = process.cpuUsage(before);
    const cpuMs = (used.user + used.system) / 1000;
    console.log(
      `two timed-out OCR uploads answered in ${took} ms; CPU in the next second: ${cpuMs.toFixed(0)} ms`,
    );
    expect(cpuMs).toBeLessThan(400);
    expect((await api.get('/health')).status).toBe(200);
  }, 60_000);
});
