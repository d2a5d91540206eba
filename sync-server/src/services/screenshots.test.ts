// A screenshot upload takes its slot before its body is read: a user or a server over its bound is refused
// (429) without the upload ever being read, whoever calls the service. On the server's own context over
// a fresh database of the run's engine, migrated.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { contextPerTest } from '../testing/service-context';
import { slowUpload } from '../testing/slow-upload';
import { saveScreenshot, type ScreenshotUpload } from './screenshots';

const t = contextPerTest(['ann', 'bob', 'cat'], { UPLOADS_PER_USER: '1', UPLOADS_IN_FLIGHT: '2' });

const notAnImage: ScreenshotUpload = { image: Buffer.from('not an image') };

describe('saveScreenshot', () => {
  it("refuses a user's second upload while the first is read, and the server's past its bound", async () => {
    const ann = slowUpload<ScreenshotUpload>();
    const first = saveScreenshot(t.ctx, 'ann', ann.reader);
    const second = slowUpload<ScreenshotUpload>();
    await expect(saveScreenshot(t.ctx, 'ann', second.reader)).rejects.toMatchObject({
      statusCode: 429,
      message: SERVER_ERRORS.tooManyUploads,
      headers: { 'retry-after': '10' },
    });
    expect(second.read.count).toBe(0);

    const bob = slowUpload<ScreenshotUpload>();
    const bobs = saveScreenshot(t.ctx, 'bob', bob.reader);
    const cat = slowUpload<ScreenshotUpload>();
    await expect(saveScreenshot(t.ctx, 'cat', cat.reader)).rejects.toMatchObject({
      statusCode: 429,
      message: SERVER_ERRORS.serverBusy,
    });
    expect(cat.read.count).toBe(0);

    ann.arrive(notAnImage);
    bob.arrive(notAnImage);
    await expect(first).rejects.toMatchObject({ statusCode: 400 });
    await expect(bobs).rejects.toMatchObject({ statusCode: 400 });
    // The slots came back with the answers.
    const again = slowUpload<ScreenshotUpload>();
    const third = saveScreenshot(t.ctx, 'ann', again.reader);
    again.arrive(notAnImage);
    await expect(third).rejects.toMatchObject({ statusCode: 400 });
    expect(again.read.count).toBe(1);
  });
});
