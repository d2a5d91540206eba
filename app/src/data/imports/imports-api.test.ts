// Imports from the device's side, against the real server and the local fixture site: an imported Pocket
// CSV reaches the device through the feed with its original dates, tags and state; a page that could not
// be fetched shows its reason on the device, and Retry clears it once the page is fetched; the errors
// the screen shows (unknown format, too large, offline) come in words.
import { IMPORT_SOURCES, type ImportView } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newCredentials,
  signedInDevice,
  siteModule,
  startWorld,
  type World,
} from '../testing/server-fixture';
import { createTestDevice, type TestDevice } from '../testing/test-lectern';
import { ImportError, importTitle } from './imports-api';

let world: World;
const pages: Record<string, string> = {};

beforeAll(async () => {
  const { DEFAULT_PAGES } = await siteModule();
  Object.assign(pages, DEFAULT_PAGES);
  world = await startWorld(pages);
});

afterAll(async () => {
  await world?.close();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let tries = 0; tries < 300; tries += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const finished = (device: TestDevice, id: string) =>
  until(
    () => device.lectern.imports.get(id),
    (view: ImportView) => view.status === 'done',
    'the import to finish',
  );

async function deviceArticle(device: TestDevice, url: string) {
  const { articles } = await device.lectern.articles.list();
  const article = articles.find((item) => item.url === url);
  if (!article) throw new Error(`${url} is not on the device`);
  return article;
}

describe('importing a Pocket CSV from a device', () => {
  it('brings the rows to the device with their dates, tags and state; a failed page clears after Retry', async () => {
    const device = await signedInDevice(world);
    const missing = world.site.url('/not-yet-there');
    const csv =
      'title,url,time_added,tags,status\n' +
      `My garden notes,${world.site.url('/gardening')},1577836800,garden|Hygge Tips,unread\n` +
      `,${world.site.url('/astronomy')},1609459200,,archive\n` +
      'Broken,not an address,1609459200,,unread\n' +
      `Later,${missing},1612137600,later,unread\n`;
    const started = await device.lectern.imports.start({
      file: new Blob([csv], { type: 'text/csv' }),
      name: 'part_000000.csv',
    });
    expect(started).toMatchObject({ source: 'pocket', total: 4 });
    expect(importTitle(started)).toBe('Pocket export, 4 items');

    const done = await finished(device, started.id);
    expect(done).toMatchObject({ imported: 3, skipped: 0, failed: 1, pages_total: 3, pages_failed: 1 });
    expect(done.failures).toEqual([{ line: 4, url: null, reason: 'Not a valid URL: not an address' }]);
    const listed = await device.lectern.imports.list();
    expect(listed.map((view) => view.id)).toEqual([started.id]);

    await device.lectern.sync.syncNow();
    expect(await deviceArticle(device, world.site.url('/gardening'))).toMatchObject({
      title: 'My garden notes',
      created_at: '2020-01-01T00:00:00.000Z',
      tags: ['garden', 'Hygge Tips'],
      is_archived: false,
    });
    expect(await deviceArticle(device, world.site.url('/astronomy'))).toMatchObject({
      title: 'Observing Saturn Tonight',
      created_at: '2021-01-01T00:00:00.000Z',
      is_archived: true,
      is_read: true,
    });
    const failed = await deviceArticle(device, missing);
    expect(failed).toMatchObject({
      title: 'Later',
      tags: ['later'],
      created_at: '2021-02-01T00:00:00.000Z',
      fetch_state: 'failed',
      fetch_error: 'The page answered with HTTP status 404',
    });
    const tags = (await device.lectern.tags.list()).tags.map((tag) => tag.name);
    expect(tags).toEqual(expect.arrayContaining(['garden', 'Hygge Tips', 'later']));

    // Retry: the server puts it back to pending at once, and the device shows that.
    pages['/not-yet-there'] = pages['/baking']!;
    const { article: retried } = await device.lectern.articles.retryFetch(failed.id);
    expect(retried.fetch_state).toBe('pending');
    expect((await device.lectern.articles.get(failed.id)).article).toMatchObject({ fetch_state: 'pending' });
    expect((await device.lectern.articles.get(failed.id)).article.fetch_error).toBeUndefined();

    // Once fetched, the feed's row has no fetch fields: the device's row loses them too.
    await until(
      async () => {
        await device.lectern.sync.syncNow();
        return (await device.lectern.articles.get(failed.id)).article;
      },
      (article) => article.content !== null,
      'the retried page to arrive',
    );
    const whole = (await device.lectern.articles.get(failed.id)).article;
    expect(whole.content).toContain('sourdough');
    expect(whole.title).toBe('Later');
    expect('fetch_state' in whole).toBe(false);
    expect('fetch_error' in whole).toBe(false);
    expect(whole.created_at).toBe('2021-02-01T00:00:00.000Z');
    await device.lectern.close();
  });

  it('says why an import cannot start: an unknown format, a file over 50 MB, no connection', async () => {
    const device = await signedInDevice(world);
    const { imports } = device.lectern;

    const unknown = await imports
      .start({ file: new Blob(['just some words\n']), name: 'notes.txt' })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(ImportError);
    expect((unknown as ImportError).status).toBe(400);
    for (const name of ['Pocket', 'Instapaper', 'Omnivore', 'Wallabag', 'Raindrop'])
      expect((unknown as ImportError).message).toContain(name);

    const huge = await imports
      .start({ file: new Blob([new Uint8Array(50 * 1024 * 1024 + 1)]), name: 'pocket.csv' })
      .catch((error: unknown) => error);
    expect(huge).toMatchObject({
      status: 413,
      message: 'The export file is larger than 50 MB. Split it into smaller files.',
    });

    device.setOnline(false);
    const offline = await imports
      .start({
        file: new Blob(['title,url,time_added,tags,status\n']),
        name: 'pocket.csv',
        source: IMPORT_SOURCES[0],
      })
      .catch((error: unknown) => error);
    expect(offline).toMatchObject({ status: 0 });
    expect((offline as Error).message).toMatch(/^You’re offline\. Importing needs a connection/);
    await expect(imports.list()).rejects.toMatchObject({ status: 0 });
    device.setOnline(true);
    expect(await imports.list()).toEqual([]);
    await device.lectern.close();
  });

  it('answers Retry offline with a network error and changes nothing on the device', async () => {
    const device = await signedInDevice(world);
    const started = await device.lectern.imports.start({
      file: new Blob([
        `title,url,time_added,tags,status\nGone,${world.site.url('/gone-for-good')},1612137600,,unread\n`,
      ]),
      name: 'pocket.csv',
    });
    await finished(device, started.id);
    await device.lectern.sync.syncNow();
    const failed = await deviceArticle(device, world.site.url('/gone-for-good'));
    expect(failed.fetch_state).toBe('failed');
    device.setOnline(false);
    await expect(device.lectern.articles.retryFetch(failed.id)).rejects.toMatchObject({
      name: 'NetworkError',
    });
    expect((await device.lectern.articles.get(failed.id)).article).toMatchObject({ fetch_state: 'failed' });
    await device.lectern.close();
  });

  it('syncs again soon while a page is being fetched, so the article replaces "Fetching page…" by itself', async () => {
    // Background sync as in the app, with a period far longer than the test.
    const device = createTestDevice({
      baseUrl: world.server.url,
      backgroundSync: true,
      syncPeriodMs: 600_000,
    });
    await device.lectern.auth.register(newCredentials());
    const url = world.site.url('/arrives-later');
    const started = await device.lectern.imports.start({
      file: new Blob([`title,url,time_added,tags,status\nLate,${url},1612137600,,unread\n`]),
      name: 'pocket.csv',
    });
    await finished(device, started.id);
    const failed = await until(
      () => deviceArticle(device, url).catch(() => null),
      (article) => article?.fetch_state === 'failed',
      'the failed page on the device',
    );
    pages['/arrives-later'] = pages['/cycling']!;
    await device.lectern.articles.retryFetch(failed!.id);
    const whole = await until(
      async () => (await device.lectern.articles.get(failed!.id)).article,
      (article) => article.fetch_state === undefined,
      'the fetched page without a manual sync',
    );
    expect(whole.content).toContain('Zürich');
    await device.lectern.close();
  });
});
