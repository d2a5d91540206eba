import { readFetchedPage } from './src/extraction/article-extraction';
import { parsePage } from './src/extraction/page-dom';
import { keepDeepNestingAsText, nestingDepth } from './src/extraction/nesting';
import { Readability } from '@mozilla/readability';
import { articlePage } from './test/support/fixture-site';
const MEGABYTE = 1024*1024;
const prose = (topic: string) => `This paragraph about ${topic} is long enough for Readability to treat it as real prose, with several clauses, commas and full sentences, so that the page scores as an article and not as a stub.`;
const article = (title: string, extra: string) => articlePage({ title, paragraphs: [prose('tides'), prose('harbours'), prose('lighthouses')] }).replace('</article>', `${extra}</article>`);
const which = process.argv[2];
const html = which === 'deep' ? article('Deep divs', `${'<div>'.repeat(2_000)}deep${'</div>'.repeat(2_000)}`.repeat(20))
 : article('Meta soup', '').replace('</head>', `${'<meta http-equiv="refresh" content="0'.repeat(MEGABYTE / 40)}${' '.repeat(MEGABYTE)}</head>`);
let t = performance.now();
console.log('depth', nestingDepth(html), (performance.now()-t).toFixed(0)); t = performance.now();
const d = parsePage(html); console.log('parse', (performance.now()-t).toFixed(0)); t = performance.now();
keepDeepNestingAsText(d); console.log('flatten', (performance.now()-t).toFixed(0)); t = performance.now();
new Readability(d as any).parse(); console.log('readability', (performance.now()-t).toFixed(0)); t = performance.now();
try { const r = readFetchedPage(html, 'https://x.example/'); console.log(r.kind, (performance.now()-t).toFixed(0)); } catch (e) { console.log((e as Error).stack?.slice(0, 800)); }
