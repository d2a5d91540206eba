// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadFile, prettyJson } from './export-download';

describe('prettyJson', () => {
  it('indents by two spaces and parses back to the same data', () => {
    const data = { user: { email: 'ada@example.com' }, articles: [{ id: 'a1', tags: ['x'] }] };
    const text = prettyJson(data);
    expect(text).toContain('\n  "user": {\n    "email": "ada@example.com"\n  }');
    expect(JSON.parse(text)).toEqual(data);
  });
});

describe('downloadFile', () => {
  afterEach(() => vi.restoreAllMocks());

  it('clicks a download link named as asked, holding the text, and leaves nothing behind', async () => {
    const clicked: { name: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ name: this.download, href: this.href });
    });
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:test/1';
    });
    downloadFile('lectern-export-2026-03-01.json', '{\n  "a": 1\n}\n');
    expect(clicked).toEqual([{ name: 'lectern-export-2026-03-01.json', href: 'blob:test/1' }]);
    expect(blobs[0]!.type).toBe('application/json');
    expect(await blobs[0]!.text()).toBe('{\n  "a": 1\n}\n');
    expect(document.querySelector('a[download]')).toBeNull();
  });
});
