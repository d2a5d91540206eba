// Small export files of every format, written from the formats issue 12 describes (quoted commas, a BOM,
// umlauts, empty titles, missing columns, rows that fail). The parser tests read them field by field; the
// counting tests and the app's import preview tests read the same files for their format and rows.
import { strToU8, zipSync } from 'fflate';
import type { ImportSource } from '../../import-sources';

export interface ExportFile {
  /** The name the file would have on the reader's disk. */
  name: string;
  bytes: Uint8Array;
  source: ImportSource;
  /** Rows the import counts: the items read and the rows that failed. */
  total: number;
}

const file = (name: string, source: ImportSource, total: number, content: string | Uint8Array) => ({
  name,
  source,
  total,
  bytes: typeof content === 'string' ? strToU8(content) : content,
});

export const POCKET_CSV: ExportFile = file(
  'part_000000.csv',
  'pocket',
  2,
  '\ufefftitle,url,time_added,tags,status\n' +
    '"Über Käse, Brot und Wein",https://example.com/a?x=1,1577836800,food|Reise Pläne,unread\n' +
    ',https://example.com/b,1609459200,,archive\n',
);

export const POCKET_CSV_WITH_CURSOR: ExportFile = file(
  'ril_export.csv',
  'pocket',
  1,
  'title,url,time_added,cursor,tags,status\r\nA,https://example.com/a,1577836800,abc,,unread\r\n',
);

/** One good row (its title quoted over two lines), then two without a usable URL. */
export const POCKET_CSV_WITH_BAD_ROWS: ExportFile = file(
  'pocket.csv',
  'pocket',
  3,
  'title,url,time_added,tags,status\n' +
    '"Multi\nline ""title""",https://example.com/ok,1577836800,,unread\n' +
    'Bad,not a url,1577836800,,unread\n' +
    'Mail,mailto:me@example.com,1577836800,,unread\n',
);

export const POCKET_ZIP: ExportFile = file(
  'pocket.zip',
  'pocket',
  2,
  zipSync({
    'part_000000.csv': strToU8(
      'title,url,time_added,tags,status\nOne,https://example.com/1,1577836800,a,unread\n',
    ),
    'part_000001.csv': strToU8(
      'title,url,time_added,tags,status\nTwo,https://example.com/2,1577836800,b,archive\n',
    ),
  }),
);

export const POCKET_HTML: ExportFile = file(
  'ril_export.html',
  'pocket',
  2,
  `<!DOCTYPE html>
<html><head><title>Pocket Export</title></head><body>
<h1>Unread</h1>
<ul>
<li><a href="https://example.com/u" time_added="1577836800" tags="x,y">Unread &amp; new</a></li>
</ul>
<h1>Read Archive</h1>
<ul>
<li><a href="https://example.com/r" time_added="1609459200" tags="">Read one</a></li>
</ul>
</body></html>`,
);

export const INSTAPAPER_CSV: ExportFile = file(
  'instapaper-export.csv',
  'instapaper',
  4,
  'URL,Title,Selection,Folder,Timestamp,Tags\n' +
    'https://example.com/1,One,"A selection, with comma",Unread,1577836800,"[""café"",""long read""]"\n' +
    'https://example.com/2,Two,,Archive,1577836801,[]\n' +
    'https://example.com/3,Three,,Starred,1577836802,\n' +
    'https://example.com/4,Four,,Recipes,1577836803,"[""food""]"\n',
);

export const INSTAPAPER_CSV_WITHOUT_TAGS: ExportFile = file(
  'instapaper-export.csv',
  'instapaper',
  1,
  'URL,Title,Selection,Folder,Timestamp\nhttps://example.com/1,,,Unread,1577836800\n',
);

export const RAINDROP_CSV: ExportFile = file(
  'raindrop.csv',
  'raindrop',
  2,
  'id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite\n' +
    '42,"Saved, ""quoted"" title",My note,An excerpt,https://example.com/a,Research/Go,"reading, go, reading",' +
    '2024-01-02T03:04:05.123Z,https://example.com/c.jpg,"Highlight: First one\nNote: mine\nHighlight: Second",true\n' +
    '43,,,,https://example.com/b,Unsorted,,2024-01-02T00:00:00.000Z,,,false\n',
);

/** One entry, and one whose address is not a web address. */
export const WALLABAG_JSON: ExportFile = file(
  'wallabag.json',
  'wallabag',
  2,
  JSON.stringify([
    {
      id: 1,
      title: 'Wallabag entry',
      url: 'https://example.com/w',
      is_archived: 1,
      is_starred: 0,
      tags: ['ökologie', 'news'],
      created_at: '2019-05-04T10:00:00+02:00',
      content: '<p>Body</p>',
      published_by: ['Ada', 'Grace'],
      annotations: [{ quote: 'a quoted passage', text: 'my note', created_at: '2019-05-05T10:00:00+02:00' }],
    },
    { id: 2, title: 'Second', url: 'ftp://example.com/x', is_archived: 0, is_starred: 1, tags: [] },
  ]),
);

/** Three entries, one of them deleted (not counted), with highlights and a saved page for the first. */
export const OMNIVORE_ZIP: ExportFile = file(
  'omnivore-export.zip',
  'omnivore',
  2,
  zipSync({
    'metadata_0_to_3.json': strToU8(
      JSON.stringify([
        {
          id: 'a',
          slug: 'first-slug',
          title: 'First',
          description: 'Desc',
          author: 'Ann',
          url: 'https://example.com/o1',
          state: 'Archived',
          readingProgress: 40,
          thumbnail: 'https://example.com/t.png',
          labels: ['Newsletter', 'Ökonomie'],
          savedAt: '2023-03-01T12:00:00.000Z',
        },
        {
          id: 'b',
          slug: 'second',
          title: 'Second',
          url: 'https://example.com/o2',
          state: 'SUCCEEDED',
          readingProgress: 100,
          labels: [],
          savedAt: '2023-03-02T12:00:00.000Z',
        },
        {
          id: 'c',
          slug: 'gone',
          title: 'Deleted',
          url: 'https://example.com/o3',
          state: 'DELETED',
          labels: [],
        },
      ]),
    ),
    'highlights/first-slug.md': strToU8(
      '> The first passage \n\n#label\n\nA note on it\n\n> A second passage\n> that goes on\n\n> Third one ',
    ),
    'content/first-slug.html': strToU8('<div><p>Saved body</p></div>'),
  }),
);

/** Three bookmarks in nested folders and a bookmarklet (a failed row). */
export const NETSCAPE_BOOKMARKS: ExportFile = file(
  'bookmarks.html',
  'bookmarks',
  4,
  `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3 ADD_DATE="1600000000" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
    <DL><p>
        <DT><A HREF="https://example.com/a?x=1&amp;y=2" ADD_DATE="1600000001">Caf&eacute; &amp; Cr&egrave;me</A>
        <DT><H3>Reading, later</H3>
        <DL><p>
            <DT><A HREF="https://example.com/b" ADD_DATE="1600000002" TAGS="one,two words">B</A>
            <DT><A HREF="javascript:alert(1)">A bookmarklet</A>
        </DL><p>
    </DL><p>
    <DT><A HREF="https://example.com/c">C</A>
</DL><p>`,
);

/** Every file above: each format and variant the importer reads. */
export const EXPORT_FILES: readonly ExportFile[] = [
  POCKET_CSV,
  POCKET_CSV_WITH_CURSOR,
  POCKET_CSV_WITH_BAD_ROWS,
  POCKET_ZIP,
  POCKET_HTML,
  INSTAPAPER_CSV,
  INSTAPAPER_CSV_WITHOUT_TAGS,
  RAINDROP_CSV,
  WALLABAG_JSON,
  OMNIVORE_ZIP,
  NETSCAPE_BOOKMARKS,
];
