// The screenshot tests once more with the server's files in S3 (S3_BUCKET, on a local s3rver): the same
// uploads, answers and deletions as in the data folder.
import { describeScreenshots } from './suites/screenshots';

describeScreenshots('s3');
