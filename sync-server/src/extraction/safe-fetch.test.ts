import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../test/fixtures/fixture-server';
import { FetchFailedError, FetchRefusedError, fetchPage } from './index';

let fixtures: FixtureServer;
let port: string;
beforeAll(async () => {
  fixtures = await startFixtureServer();
  port = new URL(fixtures.origin).port;
});
afterAll(() => fixtures.close());

const PRIVATE = "This address points to a private network and can't be saved";
const allowFixtures = () => ({ allowedOrigins: [fixtures.origin] });

async function refusal(url: string, allowedOrigins: string[] = []): Promise<FetchRefusedError> {
  const error: unknown = await fetchPage(url, { allowedOrigins, timeoutMs: 5_000 }).then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(FetchRefusedError);
  return error as FetchRefusedError; // narrowed by the assertion above
}

describe('fetchPage reads pages', () => {
  it('reads a page from an allowed origin', async () => {
    const page = await fetchPage(fixtures.url('/pages/news-article.html'), allowFixtures());
    expect(page.url).toBe(fixtures.url('/pages/news-article.html'));
    expect(page.html).toContain('<h1>Tidal power station opens on the Severn estuary</h1>');
  });

  it('follows a chain of redirects and reports the final address', async () => {
    const page = await fetchPage(fixtures.url('/redirect?hops=4'), allowFixtures());
    expect(page.url).toBe(fixtures.url('/pages/news-article.html'));
    expect(page.html).toContain('Severn');
  });

  it('follows an immediate meta refresh', async () => {
    const page = await fetchPage(
      fixtures.url('/meta-refresh-to?target=/pages/rich-article.html'),
      allowFixtures(),
    );
    expect(page.url).toBe(fixtures.url('/pages/rich-article.html'));
    expect(page.html).toContain('A field guide to HTTP caching');
  });

  it('inflates a gzip-encoded page', async () => {
    const page = await fetchPage(fixtures.url('/gzip-article'), allowFixtures());
    expect(page.html).toContain('Tidal power station opens on the Severn estuary');
  });
});

describe('fetchPage refuses private addresses without an allowed origin', () => {
  // Every notation of loopback and of other private ranges, aimed at the live fixture server where a port
  // matters, so that a refusal can only come from the address check and not from a dead host.
  const targets = () => [
    `http://127.0.0.1:${port}/pages/news-article.html`,
    `http://2130706433:${port}/pages/news-article.html`,
    `http://0x7f000001:${port}/pages/news-article.html`,
    `http://0177.0.0.1:${port}/pages/news-article.html`,
    `http://127.1:${port}/pages/news-article.html`,
    `http://0x7f.0.0.1:${port}/pages/news-article.html`,
    `http://127.0.0.1.:${port}/pages/news-article.html`,
    `http://%31%32%37.0.0.1:${port}/pages/news-article.html`,
    `http://①②⑦.0.0.1:${port}/pages/news-article.html`,
    `http://[::ffff:127.0.0.1]:${port}/pages/news-article.html`,
    `http://[::ffff:7f00:1]:${port}/pages/news-article.html`,
    `http://[::1]:${port}/`,
    `http://[::]:${port}/`,
    `http://0.0.0.0:${port}/`,
    `http://0:${port}/`,
    `http://localhost:${port}/pages/news-article.html`,
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://198.18.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://240.0.0.1/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[ff02::1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[2001:db8::1]/',
    'https://127.0.0.1/',
  ];

  it('refuses each notation with the private-network message', async () => {
    for (const target of targets()) {
      const error = await refusal(target);
      expect(error.message, target).toBe(PRIVATE);
    }
  });

  it('checks the address a name resolves to at connect time, even when another loopback origin is allowed', async () => {
    // localhost is not a literal address: only the lookup hook on the connection can catch it.
    expect(
      (await refusal(fixtures.url('/').replace('127.0.0.1', 'localhost'), [fixtures.origin])).message,
    ).toBe(PRIVATE);
  });

  it('refuses redirects from an allowed origin into private space', async () => {
    const into = (target: string) => fixtures.url(`/redirect-to?target=${encodeURIComponent(target)}`);
    for (const target of [
      `http://localhost:${port}/pages/news-article.html`,
      `http://127.0.0.2:${port}/pages/news-article.html`,
      `http://[::1]:${port}/`,
      'http://169.254.169.254/latest/meta-data/iam/',
      'http://2852039166/latest/meta-data/', // 169.254.169.254 as one number
    ]) {
      expect((await refusal(into(target), [fixtures.origin])).message, target).toBe(PRIVATE);
    }
  });

  it('refuses a meta refresh into private space', async () => {
    const target = `http://localhost:${port}/pages/news-article.html`;
    const url = fixtures.url(`/meta-refresh-to?target=${encodeURIComponent(target)}`);
    expect((await refusal(url, [fixtures.origin])).message).toBe(PRIVATE);
  });

  it('refuses redirects to other schemes', async () => {
    const url = fixtures.url(`/redirect-to?target=${encodeURIComponent('file:///etc/passwd')}`);
    expect((await refusal(url, [fixtures.origin])).message).toBe(
      'Only http and https addresses can be saved',
    );
  });
});

describe('fetchPage refuses addresses it will not save', () => {
  it.each([
    ['file:///etc/passwd', 'Only http and https addresses can be saved'],
    ['ftp://files.example.com/a.html', 'Only http and https addresses can be saved'],
    ['javascript:alert(1)', 'Only http and https addresses can be saved'],
    ['data:text/html,<h1>hi</h1>', 'Only http and https addresses can be saved'],
    ['gopher://127.0.0.1:6379/_INFO', 'Only http and https addresses can be saved'],
    ['http://user:secret@example.com/', "Addresses with a user name or password can't be saved"],
    ['https://token@example.com/', "Addresses with a user name or password can't be saved"],
    ['not a web address', 'This is not a valid web address'],
  ])('%s', async (url, message) => {
    expect((await refusal(url)).message).toBe(message);
  });

  it('refuses a PDF', async () => {
    expect((await refusal(fixtures.url('/report.pdf'), [fixtures.origin])).message).toBe(
      'This page is not an HTML document (application/pdf)',
    );
  });

  it('refuses a page that streams past the byte cap', async () => {
    expect((await refusal(fixtures.url('/huge'), [fixtures.origin])).message).toBe(
      'The page is larger than 10 MB',
    );
  });

  it('refuses a page whose declared length is past the byte cap without reading it', async () => {
    expect((await refusal(fixtures.url('/huge-declared'), [fixtures.origin])).message).toBe(
      'The page is larger than 10 MB',
    );
  });

  it('refuses a small gzip body that inflates past the byte cap', async () => {
    expect((await refusal(fixtures.url('/gzip-bomb'), [fixtures.origin])).message).toBe(
      'The page is larger than 10 MB',
    );
  });
});

describe('fetchPage fails on pages that cannot be read', () => {
  it('gives up on a page that never finishes', async () => {
    const failure = fetchPage(fixtures.url('/slow'), { ...allowFixtures(), timeoutMs: 400 });
    await expect(failure).rejects.toThrow(new FetchFailedError('The page took too long to answer'));
  });

  it('reports an upstream error status', async () => {
    await expect(fetchPage(fixtures.url('/unavailable'), allowFixtures())).rejects.toThrow(
      new FetchFailedError('The page answered with HTTP status 503'),
    );
  });

  it('stops after five redirects', async () => {
    await expect(fetchPage(fixtures.url('/redirect?hops=6'), allowFixtures())).rejects.toThrow(
      new FetchFailedError('The page redirects too many times'),
    );
    await expect(fetchPage(fixtures.url('/redirect?hops=5'), allowFixtures())).resolves.toMatchObject({
      url: fixtures.url('/pages/news-article.html'),
    });
  });

  it('reports a host that refuses the connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`; // TCP listeners report AddressInfo
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(fetchPage(`${origin}/`, { allowedOrigins: [origin] })).rejects.toThrow(
      new FetchFailedError('The page could not be reached (ECONNREFUSED)'),
    );
  });

  it('reports a name that does not resolve', async () => {
    await expect(
      fetchPage('http://no-such-host.invalid/', { allowedOrigins: [], timeoutMs: 5_000 }),
    ).rejects.toBeInstanceOf(FetchFailedError);
  });
});
