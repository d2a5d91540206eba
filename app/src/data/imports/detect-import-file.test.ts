// The format hint shown before uploading, from a file's name and first bytes.
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectImportFile } from './detect-import-file';

const file = (content: string | Uint8Array, name: string) =>
  Object.assign(new Blob([content as BlobPart]), { name });

describe('detectImportFile', () => {
  it('reads header rows, markup and JSON shapes', async () => {
    const cases: [string | Uint8Array, string, string][] = [
      ['\uFEFFtitle,url,time_added,tags,status\n', 'export.csv', 'Pocket export (CSV)'],
      ['title,url,time_added,cursor,tags,status\n', 'export.csv', 'Pocket export (CSV)'],
      ['URL,Title,Selection,Folder,Timestamp,Tags\n', 'instapaper.csv', 'Instapaper export (CSV)'],
      [
        'id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite\n',
        'raindrop.csv',
        'Raindrop export (CSV)',
      ],
      ['<!DOCTYPE NETSCAPE-Bookmark-file-1>\n', 'bookmarks.html', 'Browser bookmarks (HTML)'],
      ['<!DOCTYPE html><html><body><h1>Unread</h1><ul>', 'ril_export.html', 'Pocket export (HTML)'],
      [
        '[{"url":"https://a.example","is_archived":1,"is_starred":0}]',
        'wallabag.json',
        'Wallabag export (JSON)',
      ],
      [zipSync({ 'part_000000.csv': strToU8('title,url\n') }), 'pocket.zip', 'Pocket export (zip)'],
      [zipSync({ 'metadata_0_to_20.json': strToU8('[]') }), 'omnivore-export.zip', 'Omnivore export (zip)'],
      [zipSync({ 'a.txt': strToU8('a') }), 'other.zip', 'Zip archive'],
      ['a,b,c\n', 'numbers.csv', 'CSV file'],
      ['hello', 'notes.txt', 'Unrecognised file'],
    ];
    for (const [content, name, label] of cases) {
      expect((await detectImportFile(file(content, name))).label, name).toBe(label);
    }
  });
});
