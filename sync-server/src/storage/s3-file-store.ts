// Files in S3-compatible object storage (S3_BUCKET), shared by every server node. Keys are the local
// paths under DATA_DIR (`uploads/<user>/<article>.png`, `images/ab/<hash>.png`), so a data folder can be
// copied into a bucket as it is. Every call has a deadline: a dead or stalled endpoint fails the request
// that needed it (503) instead of holding it for ever.
//
// The AWS SDK is loaded on first use (about a second and 25 MB): a server keeping its files in DATA_DIR
// never loads it, so the default start is as quick as before.
import type { Readable } from 'node:stream';
import type * as S3Module from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import {
  checkFileKey,
  checkFilePrefix,
  checkFileSize,
  FileStoreUnavailableError,
  MAX_FILE_BYTES,
  type FileStore,
} from './file-store';

/** One call to the store (its retries included) gives up after this long unless the caller says otherwise. */
export const S3_TIMEOUT_MS = 15_000;
/** DeleteObjects takes at most this many keys at once. */
const DELETE_BATCH = 1000;

export interface S3FileStoreOptions extends S3Config {
  timeoutMs?: number;
}

/**
 * How S3 says "no such file": GetObject's NoSuchKey, HeadObject's bare 404 (NotFound). Not NoSuchBucket,
 * also a 404: a misnamed bucket is a store that can't be used, not a store without that file.
 */
function isMissing(error: unknown): boolean {
  const failure = error as { name?: string };
  return failure.name === 'NoSuchKey' || failure.name === 'NotFound';
}

type S3Sdk = typeof S3Module;

/**
 * An answer's body, at most MAX_FILE_BYTES of it: a length declared past that is refused before reading, a
 * body that goes past it is dropped there (leaving the loop destroys the stream). The call's deadline
 * bounds the time.
 */
async function readBounded(body: Readable | undefined, declared: number | undefined, key: string) {
  if (!body) return Buffer.alloc(0);
  const tooLarge = () => new Error(`answered more than ${MAX_FILE_BYTES} bytes for ${key}`);
  if (declared !== undefined && declared > MAX_FILE_BYTES) {
    body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FILE_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

export class S3FileStore implements FileStore {
  private readonly options: S3FileStoreOptions;
  private readonly bucket: string;
  private readonly timeoutMs: number;
  private loaded: Promise<{ sdk: S3Sdk; client: S3Client }> | null = null;

  constructor(options: S3FileStoreOptions) {
    this.options = options;
    this.bucket = options.bucket;
    this.timeoutMs = options.timeoutMs ?? S3_TIMEOUT_MS;
  }

  /** The SDK and a client over it, made on first use. */
  private connect(): Promise<{ sdk: S3Sdk; client: S3Client }> {
    this.loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: this.newClient(sdk) }));
    return this.loaded;
  }

  /** The client the store sends with (tests read its resolved settings). */
  async s3Client(): Promise<S3Client> {
    return (await this.connect()).client;
  }

  private newClient(sdk: S3Sdk): S3Client {
    const options = this.options;
    return new sdk.S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // By default the SDK adds a CRC checksum to every upload (and sends streamed bodies aws-chunked with a
      // checksum trailer), which S3-compatible servers older than that feature (s3rver, which the tests
      // run against, among them) may refuse or keep as sent. Checksums only where the API requires them
      // (DeleteObjects) work with all of them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A connection that doesn't open, or a request that doesn't finish, is given up; the deadline below
      // bounds the whole call, retries included.
      requestHandler: {
        connectionTimeout: this.timeoutMs,
        requestTimeout: this.timeoutMs,
        throwOnRequestTimeout: true,
      },
      maxAttempts: 2,
    });
  }

  /** Sends one command within the deadline; whatever goes wrong that isn't "no such key" is "unavailable". */
  private async send<Output>(
    what: string,
    call: (s3: { sdk: S3Sdk; client: S3Client }, abortSignal: AbortSignal) => Promise<Output>,
  ): Promise<Output> {
    const s3 = await this.connect();
    const deadline = AbortSignal.timeout(this.timeoutMs);
    try {
      return await call(s3, deadline);
    } catch (error) {
      if (isMissing(error)) throw error;
      const { name, message } = error as Error;
      const timedOut = deadline.aborted || name === 'TimeoutError' || name === 'AbortError';
      const reason = timedOut ? `no answer within ${this.timeoutMs} ms` : `${name}: ${message}`;
      const failure = `File storage (S3 bucket ${this.bucket}) failed to ${what}: ${reason}`;
      throw new FileStoreUnavailableError(failure, { cause: error });
    }
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const Key = checkFileKey(key);
    checkFileSize(key, bytes.length);
    await this.send('store a file', ({ sdk, client }, abortSignal) =>
      client.send(
        new sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key,
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.length,
        }),
        { abortSignal },
      ),
    );
  }

  async read(key: string): Promise<Buffer | null> {
    const Key = checkFileKey(key);
    try {
      return await this.send('read a file', async ({ sdk, client }, abortSignal) => {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key }), {
          abortSignal,
        });
        return readBounded(object.Body as Readable | undefined, object.ContentLength, key);
      });
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    const Key = checkFileKey(key);
    try {
      await this.send('look for a file', ({ sdk, client }, abortSignal) =>
        client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key }), { abortSignal }),
      );
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const Key = checkFileKey(key);
    // S3 answers 204 for a key it doesn't have.
    await this.send('delete a file', ({ sdk, client }, abortSignal) =>
      client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key }), { abortSignal }),
    );
  }

  async deleteAll(prefix: string): Promise<void> {
    const keys = await this.list(checkFilePrefix(prefix, 'delete'));
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const answer = await this.send('delete files', ({ sdk, client }, abortSignal) =>
        client.send(
          new sdk.DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
          { abortSignal },
        ),
      );
      const failed = answer.Errors ?? [];
      if (failed.length > 0)
        throw new FileStoreUnavailableError(
          `File storage (S3 bucket ${this.bucket}) kept ${failed.length} of the files under ${prefix}: ` +
            `${failed[0]?.Code ?? 'error'} ${failed[0]?.Message ?? ''}`.trim(),
        );
    }
  }

  async list(prefix: string): Promise<string[]> {
    const Prefix = checkFilePrefix(prefix, 'list');
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.send('list files', ({ sdk, client }, abortSignal) =>
        client.send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix, ContinuationToken }), {
          abortSignal,
        }),
      );
      // Only keys under the prefix: a broken answer naming others' files must not reach deleteAll.
      for (const object of page.Contents ?? []) if (object.Key?.startsWith(Prefix)) keys.push(object.Key);
      const next = page.IsTruncated ? page.NextContinuationToken : undefined;
      if (next !== undefined && next === ContinuationToken)
        throw new FileStoreUnavailableError(
          `File storage (S3 bucket ${this.bucket}) answered the same page of ${prefix} again`,
        );
      ContinuationToken = next;
    } while (ContinuationToken);
    return keys.sort();
  }

  async close(): Promise<void> {
    if (this.loaded) (await this.loaded).client.destroy();
  }
}
