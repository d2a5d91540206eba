import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ImportFormatError, importTotal } from './imported-item';
import { readImportFile, UNKNOWN_IMPORT_FORMAT } from './read-import-file';
import {
  EXPORT_FILES,
  INSTAPAPER_CSV,
  INSTAPAPER_CSV_WITHOUT_TAGS,
  NETSCAPE_BOOKMARKS,
  OMNIVORE_ZIP,
  POCKET_CSV,
  POCKET_CSV_WITH_BAD_ROWS,
  POCKET_CSV_WITH_CURSOR,
  POCKET_HTML,
  POCKET_ZIP,
  RAINDROP_CSV,
  WALLABAG_JSON,
} from './testing/export-files';

const bytes = (text: string) => strToU8(text);
const read = (text: string) => readImportFile(bytes(text));

describe('Pocket', () => {
  it('reads the CSV export: quoted commas, a BOM, umlauts, | tags, archive state, unix dates', () => {
    const parsed = readImportFile(POCKET_CSV.bytes);
    expect(parsed.source).toBe('pocket');
    expect(parsed.failures).toEqual([]);
    expect(
      parsed.items.map(({ line, url, title, createdAt, tags, isRead, isArchived }) => ({
        line,
        url,
        title,
        createdAt,
        tags,
        isRead,
        isArchived,
      })),
    ).toEqual([
      {
        line: 2,
        url: 'https://example.com/a?x=1',
        title: 'Über Käse, Brot und Wein',
        createdAt: '2020-01-01T00:00:00.000Z',
        tags: ['food', 'Reise Pläne'],
        isRead: false,
        isArchived: false,
      },
      {
        line: 3,
        url: 'https://example.com/b',
        title: null,
        createdAt: '2021-01-01T00:00:00.000Z',
        tags: [],
        isRead: true,
        isArchived: true,
      },
    ]);
  });

  it('reads the older variant with a cursor column and CRLF line ends', () => {
    const parsed = readImportFile(POCKET_CSV_WITH_CURSOR.bytes);
    expect(parsed.source).toBe('pocket');
    expect(parsed.items).toHaveLength(1);
    expect(parsed.items[0]!.title).toBe('A');
  });

  it('counts a row without a usable URL as failed, with its line, and keeps the rest', () => {
    const parsed = readImportFile(POCKET_CSV_WITH_BAD_ROWS.bytes);
    expect(parsed.items.map((item) => [item.line, item.title])).toEqual([[2, 'Multi\nline "title"']]);
    expect(parsed.failures).toEqual([
      { line: 4, reason: 'Not a valid URL: not a url' },
      { line: 5, reason: 'Not a web address: mailto:me@example.com' },
    ]);
  });

  it('reads a zip of several CSV parts, as Pocket mailed them', () => {
    const parsed = readImportFile(POCKET_ZIP.bytes);
    expect(parsed.source).toBe('pocket');
    expect(parsed.items.map((item) => [item.title, item.tags, item.isArchived])).toEqual([
      ['One', ['a'], false],
      ['Two', ['b'], true],
    ]);
  });

  it('reads the older HTML export: Unread and Read Archive sections', () => {
    const parsed = readImportFile(POCKET_HTML.bytes);
    expect(parsed.source).toBe('pocket');
    expect(
      parsed.items.map((item) => [item.url, item.title, item.tags, item.isArchived, item.createdAt]),
    ).toEqual([
      ['https://example.com/u', 'Unread & new', ['x', 'y'], false, '2020-01-01T00:00:00.000Z'],
      ['https://example.com/r', 'Read one', [], true, '2021-01-01T00:00:00.000Z'],
    ]);
  });
});

describe('Instapaper', () => {
  it('maps folders: Archive archived, Starred favorite, others become tags; Tags as a JSON list', () => {
    const parsed = readImportFile(INSTAPAPER_CSV.bytes);
    expect(parsed.source).toBe('instapaper');
    expect(
      parsed.items.map((item) => [item.title, item.description, item.tags, item.isArchived, item.isFavorite]),
    ).toEqual([
      ['One', 'A selection, with comma', ['café', 'long read'], false, false],
      ['Two', null, [], true, false],
      ['Three', null, [], false, true],
      ['Four', null, ['food', 'Recipes'], false, false],
    ]);
  });

  it('reads files without the Tags column', () => {
    const parsed = readImportFile(INSTAPAPER_CSV_WITHOUT_TAGS.bytes);
    expect(parsed.items[0]).toMatchObject({ url: 'https://example.com/1', title: null, tags: [] });
  });
});

describe('Raindrop', () => {
  it('reads tags, folders as tags, ISO dates, favorites, covers and highlights', () => {
    const parsed = readImportFile(RAINDROP_CSV.bytes);
    expect(parsed.source).toBe('raindrop');
    const [first, second] = parsed.items;
    expect(first).toMatchObject({
      title: 'Saved, "quoted" title',
      description: 'An excerpt',
      imageUrl: 'https://example.com/c.jpg',
      createdAt: '2024-01-02T03:04:05.123Z',
      tags: ['reading', 'go', 'Research'],
      isFavorite: true,
      highlights: [
        { text: 'First one', note: 'mine', createdAt: null },
        { text: 'Second', note: null, createdAt: null },
      ],
    });
    expect(second).toMatchObject({ title: null, tags: [], isFavorite: false, highlights: [] });
  });
});

describe('Wallabag', () => {
  it('reads state, tags, content, authors and annotations as highlights', () => {
    const parsed = readImportFile(WALLABAG_JSON.bytes);
    expect(parsed.source).toBe('wallabag');
    expect(parsed.items).toEqual([
      expect.objectContaining({
        line: 1,
        title: 'Wallabag entry',
        isArchived: true,
        isRead: true,
        isFavorite: false,
        tags: ['ökologie', 'news'],
        createdAt: '2019-05-04T08:00:00.000Z',
        content: '<p>Body</p>',
        author: 'Ada, Grace',
        highlights: [{ text: 'a quoted passage', note: 'my note', createdAt: '2019-05-05T08:00:00.000Z' }],
      }),
    ]);
    expect(parsed.failures).toEqual([{ line: 2, reason: 'Not a web address: ftp://example.com/x' }]);
  });
});

describe('Omnivore', () => {
  it('reads the zip: metadata files, highlights Markdown with notes and labels, saved content', () => {
    const parsed = readImportFile(OMNIVORE_ZIP.bytes);
    expect(parsed.source).toBe('omnivore');
    expect(parsed.items).toHaveLength(2);
    expect(parsed.items[0]).toMatchObject({
      title: 'First',
      description: 'Desc',
      author: 'Ann',
      isArchived: true,
      isRead: true,
      tags: ['Newsletter', 'Ökonomie'],
      createdAt: '2023-03-01T12:00:00.000Z',
      content: '<div><p>Saved body</p></div>',
      highlights: [
        { text: 'The first passage', note: 'A note on it', createdAt: null },
        { text: 'A second passage\nthat goes on', note: null, createdAt: null },
        { text: 'Third one', note: null, createdAt: null },
      ],
    });
    expect(parsed.items[1]).toMatchObject({
      title: 'Second',
      isArchived: false,
      isRead: true,
      content: null,
    });
  });
});

describe('browser bookmarks', () => {
  it('reads a Netscape file: folders become tags (not the browser’s own), ADD_DATE kept, javascript: refused', () => {
    const parsed = readImportFile(NETSCAPE_BOOKMARKS.bytes);
    expect(parsed.source).toBe('bookmarks');
    expect(parsed.items.map((item) => [item.line, item.url, item.title, item.tags, item.createdAt])).toEqual([
      [8, 'https://example.com/a?x=1&y=2', 'Café & Crème', [], '2020-09-13T12:26:41.000Z'],
      [11, 'https://example.com/b', 'B', ['one', 'two words', 'Reading, later'], '2020-09-13T12:26:42.000Z'],
      [15, 'https://example.com/c', 'C', [], null],
    ]);
    expect(parsed.failures).toEqual([{ line: 12, reason: 'Not a web address: javascript:alert(1)' }]);
  });
});

describe('counting', () => {
  // What the import screen shows before Start ("Pocket export, 8,412 items") and the import's total.
  it.each(EXPORT_FILES.map((file) => [file.name, file] as const))(
    'counts every row of %s, read or failed',
    (_name, file) => {
      const parsed = readImportFile(file.bytes);
      expect(parsed.source).toBe(file.source);
      expect(importTotal(parsed)).toBe(file.total);
      expect(importTotal(parsed)).toBe(parsed.items.length + parsed.failures.length);
    },
  );

  it('counts every format the importer knows', () => {
    expect(new Set(EXPORT_FILES.map((file) => file.source))).toEqual(
      new Set(['pocket', 'instapaper', 'omnivore', 'wallabag', 'raindrop', 'bookmarks']),
    );
  });

  it('counts ten thousand rows, and the rows of both parts of a zip', () => {
    let csv = 'title,url,time_added,tags,status\n';
    for (let row = 0; row < 10_000; row += 1)
      csv += `Row ${row},https://example.com/${row},1577836800,,unread\n`;
    expect(importTotal(read(csv))).toBe(10_000);
    expect(readImportFile(POCKET_ZIP.bytes).items.map((item) => item.url)).toEqual([
      'https://example.com/1',
      'https://example.com/2',
    ]);
  });
});

describe('what is not an export', () => {
  const refusals: [string, Uint8Array][] = [
    ['a CSV with other columns', bytes('name,email\nAda,ada@example.com\n')],
    ['an HTML page', bytes('<html><body><p>Hello</p></body></html>')],
    ['other JSON', bytes('{"hello": "world"}')],
    ['plain text', bytes('just some words')],
    ['a zip without exports', zipSync({ 'notes.txt': strToU8('hi') })],
  ];
  it.each(refusals)('refuses %s, naming the formats it reads', (_name, file) => {
    expect(() => readImportFile(file)).toThrow(new ImportFormatError(UNKNOWN_IMPORT_FORMAT));
  });

  it('refuses damaged JSON and a damaged zip with their own words', () => {
    expect(() => read('[{"url": "https://example.com", ')).toThrow(/This JSON file is damaged/);
    const zip = zipSync({ 'part_000000.csv': strToU8('title,url,time_added\nA,https://example.com,1\n') });
    expect(() => readImportFile(zip.slice(0, zip.length - 30))).toThrow(/The zip file is damaged/);
  });

  it('refuses a file whose format differs from the one the reader chose', () => {
    const pocket = bytes('title,url,time_added,tags,status\nA,https://example.com/a,1577836800,,unread\n');
    expect(readImportFile(pocket, 'pocket').items).toHaveLength(1);
    expect(() => readImportFile(pocket, 'instapaper')).toThrow(
      `This file is not in the format chosen (Instapaper export). ${UNKNOWN_IMPORT_FORMAT}`,
    );
  });

  it('refuses an export with a header and no rows', () => {
    expect(() => read('title,url,time_added,tags,status\n')).toThrow('This export holds no saved articles.');
  });
});

describe('hostile files', () => {
  it('reads pathological shapes in linear time', () => {
    const shapes = [
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>' + '<a x'.repeat(200_000),
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>' + '<a href="'.repeat(200_000),
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>' + '<DT><A HREF="https://e.com/">'.repeat(100_000),
      'title,url,time_added\n' + '"'.repeat(1_000_000),
      'title,url,time_added\n' + 'a,'.repeat(500_000),
    ];
    for (const shape of shapes) {
      const started = Date.now();
      try {
        read(shape);
      } catch (error) {
        expect(error).toBeInstanceOf(ImportFormatError);
      }
      // Generous: a super-linear scan of these inputs takes minutes.
      expect(Date.now() - started).toBeLessThan(3000);
    }
  });

  it('refuses a zip bomb by its declared size without unpacking it', () => {
    const zip = zipSync({ 'part_000000.csv': new Uint8Array(1024 * 1024) }, { level: 9 });
    expect(() => readImportFile(withDeclaredSize(zip, 300 * 1024 * 1024))).toThrow(
      'The zip unpacks to more than 256 MB.',
    );
  });

  it('unpacks no more than an entry declares, whatever its data holds', () => {
    const file = 'title,url,time_added,tags,status\nA,https://example.com/a,1577836800,,unread\n';
    const zip = zipSync({
      'part_000000.csv': strToU8(file + 'B,https://example.com/b,1577836800,,unread\n'.repeat(1000)),
    });
    const parsed = readImportFile(withDeclaredSize(zip, file.length));
    expect(parsed.items.map((item) => item.url)).toEqual(['https://example.com/a']);
  });
});

/** The zip with its one entry's uncompressed size rewritten in both headers, as a crafted bomb would. */
function withDeclaredSize(zip: Uint8Array, size: number): Uint8Array {
  const copy = zip.slice();
  const view = new DataView(copy.buffer);
  view.setUint32(22, size, true);
  for (let at = copy.length - 22; at >= 0; at -= 1) {
    if (view.getUint32(at, true) === 0x02014b50) {
      view.setUint32(at + 24, size, true);
      break;
    }
  }
  return copy;
}
