// A local web site for saving articles in tests: real HTTP on loopback, pages held in memory.
import { createServer, type Server } from 'node:http';

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

export async function startFixtureSite(
  pages: Record<string, string> = DEFAULT_PAGES,
  redirects: Record<string, string> = DEFAULT_REDIRECTS,
): Promise<FixtureSite> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const target = redirects[path];
    if (target !== undefined) {
      response.writeHead(302, { location: target }).end();
      return;
    }
    const page = pages[path];
    if (page === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
