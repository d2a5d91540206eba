// The image archiving tests once more with the server's files in S3 (S3_BUCKET, on a local s3rver): the
// same archiving, answers, headers and deletions as in the data folder.
import { describeImageArchive } from './suites/image-archive';

describeImageArchive('s3');
