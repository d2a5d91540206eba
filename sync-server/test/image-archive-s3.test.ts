// image-archive.test.ts once more with the server's files in S3 (S3_BUCKET, on a local s3rver): the same
// archiving, answers, headers and deletions as on the data folder.
import { keepFilesInS3 } from './support/test-file-store';

keepFilesInS3();
await import('./image-archive.test');
