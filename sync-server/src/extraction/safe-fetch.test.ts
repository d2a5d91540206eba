import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../test/fixtures/fixture-server';
import { FetchFailedError, FetchRefusedError, fetchPage } from './index';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(() => fixtures.close());

const allowFixtures = () => ({ allowedOrigins: [fixtures.origin] });

describe('fetchPage', () => {
  it('reads a page from an allowed origin', async () => {
    const page = await fetchPage(fixtures.url('/pages/news-article.html'), allowFixtures());
    expect(page.url).toBe(fixtures.url('/pages/news-article.html'));
    expect(page.html).toContain('Tidal power station opens on the Severn estuary');
  });

  it('refuses the same loopback page when its origin is not allowed', async () => {
    await expect(fetchPage(fixtures.url('/pages/news-article.html'), { allowedOrigins: [] })).rejects.toThrow(
      new FetchRefusedError("This address points to a private network and can't be saved"),
    );
  });

  it('fails with FetchFailedError on an upstream error status', async () => {
    await expect(fetchPage(fixtures.url('/unavailable'), allowFixtures())).rejects.toBeInstanceOf(
      FetchFailedError,
    );
  });
});
