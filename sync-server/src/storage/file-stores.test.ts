// Both file stores keep the same promises: bytes back as stored, a missing key is "not found", an account's
// folder goes whole and alone, and no key reaches outside the store. The S3 store runs against a local
// S3-compatible server (s3rver), through a recording proxy so the requests it sends can be checked.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally } from '../testing/listen-locally';
import { startLocalS3, type LocalS3 } from '../testing/local-s3';
import {
  checkFileKey,
  FileStoreUnavailableError,
  LocalFileStore,
  MAX_FILE_BYTES,
  S3FileStore,
  UnsafeFileKeyError,
  type FileStore,
} from './index';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');

let s3: LocalS3;
/** Sits between the S3 store and s3rver, keeping each request's method, path and headers. */
let proxy: Server;
let proxyUrl: string;
const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  s3 = await startLocalS3('unit-files');
  const target = new URL(s3.endpoint);
  proxy = createServer((incoming, outgoing) => {
    seen.push({ method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers });
    const forward = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  proxyUrl = await listenLocally(proxy);
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await s3.close();
});

const folders: string[] = [];
const opened: FileStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function localStore(): { store: LocalFileStore; root: string } {
  // The store's folder sits inside another, so a key that escaped it would land where the test can look.
  const outer = mkdtempSync(join(tmpdir(), 'lectern-files-'));
  folders.push(outer);
  const root = join(outer, 'data');
  mkdirSync(root);
  writeFileSync(join(root, 'lectern.sqlite'), 'the database');
  const store = new LocalFileStore(root);
  opened.push(store);
  return { store, root };
}

/** An S3 store on the shared bucket, through the recording proxy unless told otherwise. */
function s3Store(options: { timeoutMs?: number; endpoint?: string; bucket?: string } = {}): S3FileStore {
  const store = new S3FileStore({
    bucket: options.bucket ?? s3.bucket,
    endpoint: options.endpoint ?? proxyUrl,
    region: s3.env.S3_REGION,
    accessKeyId: s3.env.S3_ACCESS_KEY_ID,
    secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: true,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  opened.push(store);
  return store;
}

const stores: [string, () => FileStore][] = [
  ['LocalFileStore', () => localStore().store],
  ['S3FileStore', () => s3Store()],
];

/** Keys a client could try to smuggle in, were a key ever built from what it sent. */
const HOSTILE_KEYS = [
  '../outside.png',
  'uploads/../../outside.png',
  'uploads/ann/../../../outside.png',
  'uploads/ann/..',
  'uploads/./ann.png',
  '/etc/passwd',
  'uploads\\..\\..\\outside.png',
  'uploads/%2e%2e/outside.png',
  'uploads//ann.png',
  'uploads/ann/.hidden',
  'uploads/ann/a\u0000.png',
  'lectern.sqlite',
  'jwt-secret',
  '',
];
const HOSTILE_PREFIXES = ['../', '/', '', 'uploads/ann', 'uploads/../', 'uploads/ann/../', 'uploads//'];

describe.each(stores)('%s', (_name, open) => {
  afterEach(async () => {
    // The bucket is shared by the S3 tests: each leaves it empty.
    const store = s3Store();
    for (const folder of ['uploads/ann/', 'uploads/anna/', 'uploads/bob/', 'images/ab/'])
      await store.deleteAll(folder);
  });

  it('reads back the bytes it stored', async () => {
    const store = open();
    await store.put('uploads/ann/shot.png', PNG, 'image/png');
    await store.put('images/ab/abcdef.jpg', JPEG, 'image/jpeg');
    expect(await store.read('uploads/ann/shot.png')).toEqual(PNG);
    expect(await store.read('images/ab/abcdef.jpg')).toEqual(JPEG);
    expect(await store.exists('uploads/ann/shot.png')).toBe(true);
    expect(await store.list('uploads/ann/')).toEqual(['uploads/ann/shot.png']);
  });

  it('replaces a file put again under the same key', async () => {
    const store = open();
    await store.put('uploads/ann/shot.png', PNG, 'image/png');
    await store.put('uploads/ann/shot.png', Buffer.from('second'), 'image/png');
    expect((await store.read('uploads/ann/shot.png'))?.toString()).toBe('second');
  });

  it('answers null and false for a missing key, and deletes one without error', async () => {
    const store = open();
    expect(await store.read('uploads/ann/nothing.png')).toBeNull();
    expect(await store.exists('uploads/ann/nothing.png')).toBe(false);
    await expect(store.delete('uploads/ann/nothing.png')).resolves.toBeUndefined();
    await expect(store.deleteAll('uploads/nobody/')).resolves.toBeUndefined();
    expect(await store.list('uploads/nobody/')).toEqual([]);
  });

  it('deletes one file, and leaves the others', async () => {
    const store = open();
    await store.put('uploads/ann/one.png', PNG, 'image/png');
    await store.put('uploads/ann/two.png', PNG, 'image/png');
    await store.delete('uploads/ann/one.png');
    expect(await store.read('uploads/ann/one.png')).toBeNull();
    expect(await store.list('uploads/ann/')).toEqual(['uploads/ann/two.png']);
  });

  it("deletes an account's whole folder and nothing of a user whose id starts the same", async () => {
    const store = open();
    await store.put('uploads/ann/one.png', PNG, 'image/png');
    await store.put('uploads/ann/two.jpg', JPEG, 'image/jpeg');
    await store.put('uploads/anna/hers.png', PNG, 'image/png');
    await store.put('uploads/bob/his.png', PNG, 'image/png');
    await store.put('images/ab/abcdef.png', PNG, 'image/png');
    await store.deleteAll('uploads/ann/');
    expect(await store.list('uploads/ann/')).toEqual([]);
    expect(await store.list('uploads/anna/')).toEqual(['uploads/anna/hers.png']);
    expect(await store.list('uploads/bob/')).toEqual(['uploads/bob/his.png']);
    expect(await store.exists('images/ab/abcdef.png')).toBe(true);
  });

  it('refuses a file larger than MAX_FILE_BYTES, and keeps nothing of it', async () => {
    const store = open();
    await expect(
      store.put('uploads/ann/huge.png', Buffer.alloc(MAX_FILE_BYTES + 1), 'image/png'),
    ).rejects.toThrow(`more than ${MAX_FILE_BYTES} bytes`);
    expect(await store.list('uploads/ann/')).toEqual([]);
  });

  it.each(HOSTILE_KEYS)('refuses the key %j in every call, and touches nothing', async (key) => {
    const store = open();
    await expect(store.put(key, PNG, 'image/png')).rejects.toBeInstanceOf(UnsafeFileKeyError);
    await expect(store.read(key)).rejects.toBeInstanceOf(UnsafeFileKeyError);
    await expect(store.exists(key)).rejects.toBeInstanceOf(UnsafeFileKeyError);
    await expect(store.delete(key)).rejects.toBeInstanceOf(UnsafeFileKeyError);
  });

  it.each(HOSTILE_PREFIXES)('refuses to delete or list everything under %j', async (prefix) => {
    const store = open();
    await store.put('uploads/ann/one.png', PNG, 'image/png');
    await expect(store.deleteAll(prefix)).rejects.toBeInstanceOf(UnsafeFileKeyError);
    await expect(store.list(prefix)).rejects.toBeInstanceOf(UnsafeFileKeyError);
    expect(await store.list('uploads/ann/')).toEqual(['uploads/ann/one.png']);
  });

  it('lists a whole top folder, and refuses to delete one (every user’s uploads)', async () => {
    const store = open();
    await store.put('uploads/ann/one.png', PNG, 'image/png');
    await store.put('uploads/bob/two.png', PNG, 'image/png');
    expect(await store.list('uploads/')).toEqual(['uploads/ann/one.png', 'uploads/bob/two.png']);
    await expect(store.deleteAll('uploads/')).rejects.toBeInstanceOf(UnsafeFileKeyError);
    expect(await store.list('uploads/')).toEqual(['uploads/ann/one.png', 'uploads/bob/two.png']);
  });
});

describe('checkFileKey', () => {
  it('takes the keys the server builds', () => {
    for (const key of [
      'uploads/0b7f7c1e-5b53-4c43-9a43-3c3a0c7f4a11/9d2f0c1e-5b53-4c43-9a43-3c3a0c7f4a11.webp',
      `images/ab/${'ab'.repeat(32)}.svg`,
      'uploads/ann/shot.png',
    ])
      expect(checkFileKey(key)).toBe(key);
  });
});

describe('LocalFileStore', () => {
  it('keeps the data folder layout, folders 0700 and files 0600, and no temporary file behind', async () => {
    const { store, root } = localStore();
    await store.put('uploads/ann/shot.png', PNG, 'image/png');
    await store.put('images/ab/abcdef.png', PNG, 'image/png');
    expect(readFileSync(join(root, 'uploads', 'ann', 'shot.png')).equals(PNG)).toBe(true);
    expect(readFileSync(join(root, 'images', 'ab', 'abcdef.png')).equals(PNG)).toBe(true);
    for (const folder of ['uploads', 'uploads/ann', 'images', 'images/ab'])
      expect(statSync(join(root, folder)).mode & 0o777).toBe(0o700);
    for (const file of ['uploads/ann/shot.png', 'images/ab/abcdef.png'])
      expect(statSync(join(root, file)).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(root, 'uploads', 'ann'))).toEqual(['shot.png']);
  });

  it('leaves no temporary file behind when a write fails', async () => {
    const { store, root } = localStore();
    // A folder where the file would go: the temporary file is written, its rename then fails.
    mkdirSync(join(root, 'uploads', 'ann', 'shot.png'), { recursive: true });
    await expect(store.put('uploads/ann/shot.png', PNG, 'image/png')).rejects.toThrow();
    expect(readdirSync(join(root, 'uploads', 'ann'))).toEqual(['shot.png']);
    expect(readdirSync(join(root, 'uploads', 'ann', 'shot.png'))).toEqual([]);
  });

  it('writes nothing outside its folder, nor over the database beside the files', async () => {
    const { store, root } = localStore();
    for (const key of HOSTILE_KEYS) await store.put(key, PNG, 'image/png').catch(() => undefined);
    for (const prefix of [...HOSTILE_PREFIXES, 'uploads/'])
      await store.deleteAll(prefix).catch(() => undefined);
    expect(readdirSync(join(root, '..'))).toEqual(['data']);
    expect(readdirSync(root)).toEqual(['lectern.sqlite']);
    expect(readFileSync(join(root, 'lectern.sqlite'), 'utf8')).toBe('the database');
    expect(existsSync('/etc/passwd') && readFileSync('/etc/passwd').equals(PNG)).toBe(false);
  });
});

describe('S3FileStore', () => {
  afterEach(async () => {
    await s3Store().deleteAll('uploads/ann/');
  });

  it('stores the bytes as they are: no checksum trailer or aws-chunked framing s3rver would keep', async () => {
    const store = s3Store();
    seen.length = 0;
    await store.put('uploads/ann/shot.png', PNG, 'image/png');
    const put = seen.find((request) => request.method === 'PUT');
    expect(put?.url.split('?')[0]).toBe(`/${s3.bucket}/uploads/ann/shot.png`);
    expect(put?.headers['content-encoding'] ?? '').not.toContain('aws-chunked');
    expect(Object.keys(put?.headers ?? {}).filter((name) => name.startsWith('x-amz-checksum-'))).toEqual([]);
    expect(put?.headers['x-amz-sdk-checksum-algorithm']).toBeUndefined();
    expect(put?.headers['content-length']).toBe(String(PNG.length));
    expect(put?.headers['content-type']).toBe('image/png');
    const kept = join(s3.folder, s3.bucket, 'uploads', 'ann', 'shot.png._S3rver_object');
    expect(readFileSync(kept).equals(PNG)).toBe(true);
    const { config } = await store.s3Client();
    expect(await config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
    expect(await config.responseChecksumValidation()).toBe('WHEN_REQUIRED');
  });

  it('keeps the keys of the data folder, so one can be copied into the other', async () => {
    await s3Store().put('uploads/ann/shot.png', PNG, 'image/png');
    expect(await s3.keys('uploads/')).toEqual(['uploads/ann/shot.png']);
  });

  it('sends nothing to the bucket for a hostile key', async () => {
    const store = s3Store();
    seen.length = 0;
    for (const key of HOSTILE_KEYS) await store.put(key, PNG, 'image/png').catch(() => undefined);
    for (const prefix of [...HOSTILE_PREFIXES, 'uploads/'])
      await store.deleteAll(prefix).catch(() => undefined);
    expect(seen).toEqual([]);
    expect(await s3.keys()).toEqual([]);
  });

  it('gives up on an endpoint that accepts connections and never answers, within its deadline', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const store = s3Store({ endpoint: `http://127.0.0.1:${port}`, timeoutMs: 800 });
      for (const call of [
        () => store.put('uploads/ann/shot.png', PNG, 'image/png'),
        () => store.read('uploads/ann/shot.png'),
        () => store.exists('uploads/ann/shot.png'),
        () => store.deleteAll('uploads/ann/'),
      ]) {
        const started = performance.now();
        const failure = await call().then(
          () => null,
          (error: unknown) => error,
        );
        const took = performance.now() - started;
        expect(failure).toBeInstanceOf(FileStoreUnavailableError);
        expect((failure as Error).message).toContain('no answer within 800 ms');
        expect(took).toBeGreaterThanOrEqual(700);
        expect(took).toBeLessThan(3_000);
      }
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('refuses an answer larger than any file it keeps, declared or streamed, and one that stalls midway', async () => {
    // A broken or hostile endpoint: a length past MAX_FILE_BYTES, a body that never ends, one that stops.
    let streamed = 0;
    const hostile = createServer((incoming, outgoing) => {
      const path = incoming.url?.split('?')[0] ?? '';
      if (path.endsWith('/declared.png')) {
        outgoing.writeHead(200, { 'content-type': 'image/png', 'content-length': String(100 * 2 ** 30) });
        outgoing.write(PNG);
      } else if (path.endsWith('/endless.png')) {
        outgoing.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(64 * 1024, 7);
        const more = () => {
          while (!outgoing.destroyed) {
            streamed += chunk.length;
            if (!outgoing.write(chunk)) return void outgoing.once('drain', more);
          }
        };
        more();
      } else {
        outgoing.writeHead(200, { 'content-type': 'image/png', 'content-length': '1000' });
        outgoing.write(PNG);
      }
    });
    const endpoint = await listenLocally(hostile);
    try {
      const store = s3Store({ endpoint, timeoutMs: 800 });
      for (const name of ['declared', 'endless', 'stalled']) {
        const started = performance.now();
        const failure = await store.read(`uploads/ann/${name}.png`).then(
          () => null,
          (error: unknown) => error,
        );
        const took = performance.now() - started;
        expect(failure, name).toBeInstanceOf(FileStoreUnavailableError);
        if (name === 'stalled') {
          expect((failure as Error).message).toContain('no answer within 800 ms');
          expect(took).toBeLessThan(3_000);
        } else {
          expect((failure as Error).message, name).toContain(`more than ${MAX_FILE_BYTES} bytes`);
          expect(took, name).toBeLessThan(700);
        }
      }
      // The endless body was given up soon after the limit, not read to the deadline.
      expect(streamed).toBeGreaterThan(0);
      expect(streamed).toBeLessThan(MAX_FILE_BYTES + 16 * 2 ** 20);
    } finally {
      hostile.closeAllConnections();
      await new Promise((resolve) => hostile.close(resolve));
    }
  });

  it('lists and deletes only keys under the prefix, and stops when a listing goes round in circles', async () => {
    // A broken endpoint: its listing names another account's file, and then the same page for ever.
    const deleted: string[] = [];
    const broken = createServer((incoming, outgoing) => {
      const url = new URL(incoming.url ?? '/', 'http://s3');
      if (incoming.method === 'POST' && url.searchParams.has('delete')) {
        let body = '';
        incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
        incoming.on('end', () => {
          deleted.push(...[...body.matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => match[1]!));
          outgoing.writeHead(200, { 'content-type': 'application/xml' });
          outgoing.end('<?xml version="1.0" encoding="UTF-8"?><DeleteResult></DeleteResult>');
        });
        return;
      }
      const circles = url.searchParams.get('prefix') === 'uploads/bob/';
      outgoing.writeHead(200, { 'content-type': 'application/xml' });
      outgoing.end(
        '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult>' +
          `<Name>${s3.bucket}</Name><Prefix>${url.searchParams.get('prefix')}</Prefix><MaxKeys>1000</MaxKeys>` +
          '<Contents><Key>uploads/ann/one.png</Key></Contents>' +
          '<Contents><Key>uploads/anna/hers.png</Key></Contents>' +
          (circles
            ? '<IsTruncated>true</IsTruncated><NextContinuationToken>again</NextContinuationToken>'
            : '<IsTruncated>false</IsTruncated>') +
          '</ListBucketResult>',
      );
    });
    const endpoint = await listenLocally(broken);
    try {
      const store = s3Store({ endpoint, timeoutMs: 2_000 });
      expect(await store.list('uploads/ann/')).toEqual(['uploads/ann/one.png']);
      await store.deleteAll('uploads/ann/');
      expect(deleted).toEqual(['uploads/ann/one.png']);
      const started = performance.now();
      await expect(store.list('uploads/bob/')).rejects.toThrow(
        'answered the same page of uploads/bob/ again',
      );
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      broken.closeAllConnections();
      await new Promise((resolve) => broken.close(resolve));
    }
  });

  it('says a bucket that does not exist is unavailable, never that its files are missing', async () => {
    const store = s3Store({ bucket: 'no-such-bucket' });
    for (const call of [
      () => store.read('uploads/ann/shot.png'),
      () => store.put('uploads/ann/shot.png', PNG, 'image/png'),
      () => store.delete('uploads/ann/shot.png'),
      () => store.list('uploads/ann/'),
    ])
      await expect(call()).rejects.toThrow(
        /^File storage \(S3 bucket no-such-bucket\) failed to .*NoSuchBucket/,
      );
  });

  it('fails at once, as unavailable, when nothing listens at the endpoint', async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const store = s3Store({ endpoint: `http://127.0.0.1:${port}`, timeoutMs: 5_000 });
    const started = performance.now();
    await expect(store.read('uploads/ann/shot.png')).rejects.toBeInstanceOf(FileStoreUnavailableError);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
