// A client that trickles a screenshot upload byte by byte must not hold an upload slot for ever: the request
// is cut off after REQUEST_TIMEOUT_MS and its slot goes back, so the user (and everyone) can upload again.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, signUp } from './support/api-client';
import { noisePng } from './support/noise-png';

let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  server = await startTestServer({
    env: { REQUEST_TIMEOUT_MS: '1500', UPLOADS_PER_USER: '2', UPLOADS_IN_FLIGHT: '2' },
  });
  api = new ApiClient(server.url);
});
afterAll(() => server.close());

interface Trickle {
  socket: Socket;
  /** Resolves with what the server answered (if anything) once it closes the connection. */
  closed: Promise<string>;
  stop(): void;
}

/** Starts a multipart upload announcing 1 MB and then sends one byte every 100 ms. */
function trickleUpload(token: string): Trickle {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), '127.0.0.1');
  const boundary = 'trickle-boundary';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="screenshot"; filename="slow.png"\r\n` +
    `Content-Type: image/png\r\n\r\n`;
  socket.write(
    `POST /api/articles/screenshot HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${1_000_000}\r\n\r\n${head}`,
  );
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write('x');
  }, 100);
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk.toString()));
  const closed = new Promise<string>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve(answer);
    });
    socket.on('error', () => undefined);
  });
  return {
    socket,
    closed,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

const upload = (client: ApiClient, image: Buffer) => {
  const form = new FormData();
  form.append('screenshot', new Blob([image], { type: 'image/png' }), 'small.png');
  return client.request('POST', '/articles/screenshot', { body: form });
};

describe('a trickled screenshot upload', () => {
  it('is cut off after REQUEST_TIMEOUT_MS and gives its upload slot back', async () => {
    const { client, token } = await signUp(api);
    const trickles = [trickleUpload(token), trickleUpload(token)];
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Both of the user's slots are held by the trickles meanwhile.
      const meanwhile = await upload(client, noisePng(40, 30));
      expect(meanwhile.status).toBe(429);
      expect(meanwhile.body).toEqual({ error: SERVER_ERRORS.tooManyUploads });

      const started = Date.now();
      const answers = await Promise.race([
        Promise.all(trickles.map((trickle) => trickle.closed)),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000)),
      ]);
      const cutAfter = Date.now() - started + 300;
      console.log(`trickled uploads cut off after about ${cutAfter} ms (REQUEST_TIMEOUT_MS=1500)`);
      expect(answers).not.toBeNull();
      for (const answer of answers ?? []) expect(answer.startsWith('HTTP/1.1 408')).toBe(true);

      // The slots are free again: the same user's upload is read (not refused as busy).
      const after = await upload(client, noisePng(40, 30));
      expect(after.status).not.toBe(429);
      expect([201, 422]).toContain(after.status);
      expect((await api.get('/health')).status).toBe(200);
    } finally {
      for (const trickle of trickles) trickle.stop();
    }
  }, 60_000);
});
