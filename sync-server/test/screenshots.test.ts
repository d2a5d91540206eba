// Screenshots saved, read by OCR, served and deleted, with the server's files in the data folder
// (screenshots-s3.test.ts: the same in S3).
import { describeScreenshots } from './suites/screenshots';

describeScreenshots('folder');
