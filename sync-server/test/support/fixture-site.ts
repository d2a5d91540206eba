// A local web site for saving articles in tests: real HTTP on loopback, pages held in memory.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { noisePng } from './noise-png';
import { listenLocally } from '../../src/testing/listen-locally';

export interface FixtureSite {
  origin: string;
  url(path: string): string;
  close(): Promise<void>;
}

export function articlePage(options: {
  title: string;
  author?: string;
  description?: string;
  paragraphs: string[];
  image?: string;
  published?: string;
}): string {
  const meta = [
    options.description && `<meta name="description" content="${options.description}">`,
    options.author && `<meta name="author" content="${options.author}">`,
    options.image && `<meta property="og:image" content="${options.image}">`,
    options.published && `<meta property="article:published_time" content="${options.published}">`,
  ]
    .filter(Boolean)
    .join('\n');
  const body = options.paragraphs.map((text) => `<p>${text}</p>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${options.title}</title>${meta}</head>
<body><header><nav><a href="/">Home</a></nav></header>
<article><h1>${options.title}</h1>${options.author ? `<p class="byline">By ${options.author}</p>` : ''}${body}</article>
<footer>Copyright</footer></body></html>`;
}

const filler = (topic: string) =>
  `This paragraph about ${topic} is long enough for Readability to treat it as real prose, with several clauses, ` +
  `commas and full sentences. It keeps going so that the page scores as an article rather than a navigation stub, ` +
  `and it mentions ${topic} again so that searches have something to find.`;

/** Pages every test can save: a few articles on distinct topics, and a missing page. */
export const DEFAULT_PAGES: Record<string, string> = {
  '/gardening': articlePage({
    title: 'Winter Gardening Guide',
    author: 'Ada Green',
    description: 'How to keep a vegetable garden going through the cold months.',
    image: '/images/garden.jpg',
    published: '2026-01-15T08:00:00Z',
    paragraphs: [
      filler('gardening and compost'),
      filler('frost protection'),
      filler('winter vegetables like kale'),
    ],
  }),
  '/astronomy': articlePage({
    title: 'Observing Saturn Tonight',
    author: 'Carl Stern',
    description: 'A beginner telescope guide to the ringed planet.',
    paragraphs: [filler('telescopes and Saturn'), filler('planetary rings'), filler('night sky observation')],
  }),
  '/baking': articlePage({
    title: 'Sourdough Bread Basics',
    author: 'Bea Baker',
    description: 'Starter, flour, water and patience.',
    paragraphs: [filler('sourdough starter'), filler('kneading dough'), filler('baking crusty bread')],
  }),
  '/': articlePage({
    title: 'Fixture Site Home',
    description: 'The home page that redirected links end on.',
    paragraphs: [filler('the latest stories'), filler('what this site is about'), filler('how to subscribe')],
  }),
  '/cycling': articlePage({
    title: 'Café Culture and Cycling in Zürich',
    description: 'Unicode, diacritics and bicycles.',
    paragraphs: [filler('cycling through Zürich'), filler('café stops'), filler('mountain passes')],
  }),
};

/** Links that answer a redirect, the way shortened links or gated pages send every visitor to one place. */
export const DEFAULT_REDIRECTS: Record<string, string> = {
  '/go/first-story': '/',
  '/go/second-story': '/',
};

/** A file the site serves as it is (an image), or 'stall': headers never come (a hung image server). */
export type FixtureFile = { type: string; body: Buffer } | 'stall';

export async function startFixtureSite(
  pages: Record<string, string> = DEFAULT_PAGES,
  redirects: Record<string, string> = DEFAULT_REDIRECTS,
  files: Record<string, FixtureFile> = {},
): Promise<FixtureSite> {
  const stalled = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const target = redirects[path];
    if (target !== undefined) {
      response.writeHead(302, { location: target }).end();
      return;
    }
    const file = files[path];
    if (file === 'stall') {
      stalled.add(response);
      response.on('close', () => stalled.delete(response));
      return;
    }
    if (file !== undefined) {
      response.writeHead(200, { 'content-type': file.type }).end(file.body);
      return;
    }
    const page = pages[path];
    if (page === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  const origin = await listenLocally(server);
  return {
    origin,
    url: (path) => `${origin}${path}`,
    close: () =>
      new Promise((resolve) => {
        for (const response of stalled) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Small images of each kind we keep, made in memory (their bytes are what the tests compare). */
export const FIXTURE_IMAGES = {
  png: noisePng(8, 8, 3),
  // A JPEG header whose first frame says 8×8: sniffed from its bytes, never decoded by the server.
  jpeg: Buffer.from(
    'ffd8ffe000104a46494600010100000100010000ffc0001108000800080301220002110103110' + '1ffd9',
    'hex',
  ),
  // A lossless WebP (VP8L) header of 8×8.
  webp: Buffer.concat([
    Buffer.from('RIFF', 'latin1'),
    Buffer.from([32, 0, 0, 0]),
    Buffer.from('WEBPVP8L', 'latin1'),
    Buffer.from([20, 0, 0, 0, 0x2f, 0x07, 0xc0, 0x01, 0x00]),
    Buffer.alloc(11),
  ]),
  lead: noisePng(16, 9, 7),
  svgWithScript: Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)">' +
      '<script>fetch("/api/auth/me")</script><rect width="10" height="10" fill="red" onclick="alert(2)"/>' +
      '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>' +
      '<use href="https://tracker.example/sprite.svg#a"/><circle r="3" fill="url(https://tracker.example/x)"/></svg>',
  ),
  /** A PNG past the per-image cap (5 MB). */
  huge: Buffer.concat([noisePng(8, 8, 5), Buffer.alloc(6 * 1024 * 1024)]),
};

/**
 * The issue 14 article: a lead image (og:image) and six body images: PNG, JPEG, WebP, an SVG with a
 * script, one missing (404), one over the size cap, and one at `privateImage` (a private address).
 */
export function imageArticlePage(privateImage: string): string {
  const paragraph = (topic: string) => `<p>${filler(topic)}</p>`;
  const figure = (src: string, alt: string) => `<figure><img src="${src}" alt="${alt}"></figure>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Birds of the Estuary</title>
<meta property="og:image" content="/img/lead.png"></head>
<body><article><h1>Birds of the Estuary</h1>
${paragraph('herons and egrets')}${figure('/img/heron.png', 'PNG heron')}
${paragraph('curlews on the mudflats')}<p><img src="/img/curlew.jpg" alt="JPEG curlew" srcset="/img/curlew.jpg 1x, /img/curlew-2x.jpg 2x"></p>
${paragraph('terns in summer')}${figure('/img/tern.webp', 'WebP tern')}
${paragraph('the tide tables')}${figure('/img/map.svg', 'SVG map')}
${paragraph('migrating geese')}${figure('/img/missing.png', 'Missing goose')}
${paragraph('a very large photo')}${figure('/img/huge.png', 'Huge photo')}
${paragraph('the warden hut')}${figure(privateImage, 'Private camera')}
${paragraph('how to visit')}</article></body></html>`;
}

export const IMAGE_ARTICLE_FILES: Record<string, FixtureFile> = {
  '/img/lead.png': { type: 'image/png', body: FIXTURE_IMAGES.lead },
  '/img/heron.png': { type: 'image/png', body: FIXTURE_IMAGES.png },
  // Served as text/plain: the bytes decide, not the header.
  '/img/curlew.jpg': { type: 'text/plain', body: FIXTURE_IMAGES.jpeg },
  '/img/tern.webp': { type: 'image/webp', body: FIXTURE_IMAGES.webp },
  '/img/map.svg': { type: 'image/svg+xml', body: FIXTURE_IMAGES.svgWithScript },
  '/img/huge.png': { type: 'image/png', body: FIXTURE_IMAGES.huge },
  '/img/stall.png': 'stall',
};
