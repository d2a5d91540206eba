import { parsePage } from './src/extraction/page-dom';
const k = Number(process.argv[2]); const tag = process.argv[3] ?? 'noscript';
const html = `<!doctype html><html><head></head><body>${`<${tag}>`.repeat(k)}</body></html>`;
let t = performance.now();
const document = parsePage(html);
console.log(tag, k, 'parse', (performance.now() - t).toFixed(0), 'heap MB', (process.memoryUsage().heapUsed/1e6).toFixed(0));
t = performance.now();
let n = 0, maxd = 0;
let el: any = document.documentElement, depth = 0;
while (el) { n++; if (depth > maxd) maxd = depth;
  if (el.firstElementChild) { el = el.firstElementChild; depth++; continue; }
  while (el && !el.nextElementSibling) { el = el.parentElement; depth--; }
  if (el) el = el.nextElementSibling;
}
console.log('walk', n, maxd, (performance.now() - t).toFixed(0));
