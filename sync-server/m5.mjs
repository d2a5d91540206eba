import { parseHTML } from 'linkedom';
const k = Number(process.argv[2]);
const html = `<!doctype html><html><head></head><body>${'<noscript>'.repeat(k)}</body></html>`;
let t = performance.now();
parseHTML(html);
console.log(k, (performance.now() - t).toFixed(0));
