// A saved article's images archived on the server, with its files in the data folder
// (image-archive-s3.test.ts: the same in S3).
import { describeImageArchive } from './suites/image-archive';

describeImageArchive('folder');
