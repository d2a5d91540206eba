// Pages for the reading tests: an article with the structures highlights break on (an inline link,
// emphasis, a phrase that occurs twice, a figure, code, a quote, a list), a page with no article in it,
// and the pictures they show, served from their own origin as a real site's would be.
import { createServer, type Server } from 'node:http';

export interface ImageSite {
  origin: string;
  close(): Promise<void>;
}

const HERO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f6d8a8"/><stop offset="1" stop-color="#e9a77a"/></linearGradient></defs>
<rect width="1200" height="630" fill="url(#sky)"/><circle cx="880" cy="210" r="90" fill="#fff3d6"/>
<path d="M0 470 Q300 360 600 450 T1200 420 V630 H0Z" fill="#8c5a4a"/><path d="M0 540 Q320 470 640 530 T1200 520 V630 H0Z" fill="#5b3a34"/>
<rect x="470" y="380" width="260" height="24" rx="6" fill="#2f4858"/><rect x="490" y="330" width="220" height="50" rx="6" fill="#f4efe6"/></svg>`;

const FIGURE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="420" viewBox="0 0 800 420">
<rect width="800" height="420" fill="#e6f1ef"/><path d="M400 60 L520 200 H280 Z" fill="#1f6f6b"/><rect x="395" y="200" width="10" height="120" fill="#1f6f6b"/>
<ellipse cx="400" cy="330" rx="140" ry="18" fill="#cfe3df"/><path d="M250 340 Q400 300 550 340 L550 360 Q400 320 250 360Z" fill="#f4efe6" stroke="#57534c"/></svg>`;

export async function startImageSite(): Promise<ImageSite> {
  const images: Record<string, string> = { '/hero.svg': HERO_SVG, '/lamp.svg': FIGURE_SVG };
  const server: Server = createServer((request, response) => {
    const image = images[(request.url ?? '/').split('?')[0] ?? '/'];
    if (!image) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=3600' }).end(image);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export const READING = {
  path: '/slow-reading',
  title: 'The Quiet Art of Slow Reading',
  author: 'Mira Okafor',
  /** Text around the inline link, for a highlight that spans it. */
  linkSentenceStart: 'Researchers at the',
  linkText: 'Reading Lab in Leiden',
  linkSentenceEnd: 'found that readers remember more',
  /** Occurs twice, in the second and the sixth paragraph. */
  twice: 'the quiet hour before bed',
};

const filler = (topic: string) =>
  `Reading about ${topic} takes patience, and patience grows with practice. Each page asks for a little ` +
  `attention, and each return to the text gives a little back, so that over weeks the habit settles in and ` +
  `the mind stops reaching for the next distraction.`;

export function readingPages(imageOrigin: string): Record<string, string> {
  const article = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${READING.title}</title>
<meta name="description" content="Why reading more slowly helps you remember more, and how to build the habit.">
<meta name="author" content="${READING.author}">
<meta property="og:image" content="${imageOrigin}/hero.svg">
<meta property="article:published_time" content="2026-02-03T09:00:00Z">
</head><body><header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
<article><h1>${READING.title}</h1><p class="byline">By ${READING.author}</p>
<p>Slow reading is a habit worth keeping. ${READING.linkSentenceStart} <a href="https://example.org/lab">${READING.linkText}</a> ${READING.linkSentenceEnd} when they read a chapter twice at an easy pace than once in a hurry.</p>
<p>Many readers keep ${READING.twice} for novels, when the house is still and the phone is in another room.</p>
<h2>Why it works</h2>
<p>Attention is the scarce part. When you <em>slow down</em>, the sentence has time to connect to what you already know, and <strong>memory</strong> does the rest. ${filler('memory')}</p>
<figure><img src="${imageOrigin}/lamp.svg" alt="A reading lamp over an open book" width="800" height="420"><figcaption>A lamp, a chair and nothing else.</figcaption></figure>
<p>${filler('attention')}</p>
<p>Others find that ${READING.twice} is better spent on essays, because a short piece can be finished before sleep arrives.</p>
<blockquote><p>Read not to contradict and confute, nor to believe and take for granted, but to weigh and consider.</p></blockquote>
<h2>Building the habit</h2>
<ul><li>Choose a fixed time each day.</li><li>Keep a pencil nearby for notes.</li><li>Stop at the end of a section, not in the middle of one.</li></ul>
<pre><code>const minutesPerDay = 20; // twenty minutes a day adds up to more than a hundred hours a year of quiet reading time</code></pre>
<p>${filler('habits')}</p>
<p>${filler('patience')}</p>
<p>${filler('quiet evenings')}</p>
<p>${filler('books')}</p>
</article><footer>Copyright</footer></body></html>`;

  const noArticle = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Members Only Digest</title>
<meta name="description" content="A weekly digest for members, with the full text behind a sign-in.">
</head><body><nav><a href="/">Home</a></nav><div>Sign in to read.</div></body></html>`;

  return { [READING.path]: article, '/members-only': noArticle };
}
