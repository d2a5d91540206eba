import { describe, expect, it } from 'vitest';
import { sanitizeSvg } from './sanitize-svg';

describe('sanitizeSvg', () => {
  it('keeps the drawing and drops scripts, handlers, foreignObject, style and outside references', () => {
    const clean = sanitizeSvg(
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "boom">]>' +
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)">' +
        '<script>alert(2)</script><style>rect{fill:url(https://t.example/a)}</style>' +
        '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>' +
        '<rect width="10" height="10" fill="url(#g)" onclick="x()" style="background:url(https://t.example/b)"/>' +
        '<circle r="2" fill="url(https://t.example/c)"/><use href="#g"/><use xlink:href="https://t.example/d#a"/>' +
        '<image href="https://t.example/e.png"/><a href="javascript:alert(3)"><text>link</text></a>' +
        '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="y()"></div></foreignObject>' +
        '</svg>',
    )!;
    expect(clean.startsWith('<svg')).toBe(true);
    expect(clean).toContain('linearGradient');
    expect(clean).toContain('fill="url(#g)"');
    expect(clean).toContain('<use href="#g"');
    for (const gone of [
      'script',
      'alert',
      'onload',
      'onclick',
      'style',
      't.example',
      'foreignObject',
      'onerror',
    ])
      expect(clean).not.toContain(gone);
  });

  it('answers null when no svg root is left', () => {
    expect(sanitizeSvg('<script>alert(1)</script>')).toBeNull();
    expect(sanitizeSvg('<html><body>not an image</body></html>')).toBeNull();
  });

  it('stays linear on hostile input', () => {
    const attribute = `fill="${'url('.repeat(200_000)}"`;
    const nested = `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(50_000)}${'</g>'.repeat(50_000)}<rect ${attribute}/></svg>`;
    const started = performance.now();
    const clean = sanitizeSvg(nested)!;
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(clean).not.toContain('url(');
  });
});
