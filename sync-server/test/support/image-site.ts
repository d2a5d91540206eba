// A site whose pages carry pictures, for the tests of archived images (issue 14): every address under
// /img/ answers a picture of its own (a PNG of grey noise seeded by its name, so each has its own bytes and
// hash), /img/*.svg a plain SVG; pages are the HTML given. Counts the requests, so a test can tell whether
// the device or the server came back for an image.
import { createCipheriv, createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { greyscalePng, noisePng } from './noise-png';
import { listenLocally } from '../../src/testing/listen-locally';

export interface ImageSite {
  origin: string;
  url(path: string): string;
  /** Requests for each path so far. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

const FIGURE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="210" viewBox="0 0 400 210">
<rect width="400" height="210" fill="#e6f1ef"/><path d="M200 30 L260 100 H140 Z" fill="#1f6f6b"/></svg>`;

/**
 * A greyscale PNG of cipher-stream noise, which no compression shrinks: about width × height bytes on the
 * wire, the same for the same name (budget tests need pictures of a known, large size).
 */
function incompressiblePng(width: number, height: number, name: string): Buffer {
  const key = createHash('sha256').update(name).digest().subarray(0, 16);
  const noise = createCipheriv('aes-128-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(width * height));
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y += 1) noise.copy(rows, y * (width + 1) + 1, y * width, (y + 1) * width);
  return greyscalePng(width, height, rows, 1);
}

function seedOf(name: string): number {
  let seed = 7;
  for (const char of name) seed = (seed * 31 + char.charCodeAt(0)) >>> 0;
  return seed;
}

/** An article page naming a lead image and `count` body images on `origin`. */
export function pictureArticle(origin: string, title: string, count: number, prefix = title): string {
  const slug = prefix.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const figures = Array.from(
    { length: count },
    (_, i) =>
      `<p>Paragraph ${i + 1} of ${title}: a few sentences of prose, so that the page reads as an article and ` +
      `keeps its pictures in their places between the words around them.</p>` +
      `<figure><img src="${origin}/img/${slug}-${i}.png" alt="Figure ${i + 1}" width="64" height="48"></figure>`,
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta property="og:image" content="${origin}/img/${slug}-lead.png">
</head><body><article><h1>${title}</h1>
<p>${title} opens with a paragraph long enough to be the article's own text, not a navigation bar or a footer.</p>
${figures}
<figure><img src="${origin}/img/${slug}-figure.svg" alt="A drawing" width="400" height="210"></figure>
<p>The end of ${title}, with one more sentence so the closing figure sits inside the article's text.</p>
</article></body></html>`;
}

export async function startImageSite(pages: Record<string, string> = {}): Promise<ImageSite> {
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path.startsWith('/img/') && path.endsWith('.svg')) {
      response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(FIGURE_SVG);
      return;
    }
    if (path.startsWith('/img/') && path.endsWith('.png')) {
      // A page under /big-… names pictures of about 3 MB of noise (budget tests); others are small.
      const big = path.startsWith('/img/-big-');
      const picture = big ? incompressiblePng(1800, 1700, path) : noisePng(64, 48, seedOf(path));
      response.writeHead(200, { 'content-type': 'image/png' }).end(picture);
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
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
