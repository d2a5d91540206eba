// The bodies a new device fetches are given their search text: the server's when it sent one (the device
// need not make it again), else made from the body as an older server's answer needs.
import { htmlToText } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { bodySizeOf } from '../db/local-store';
import { prepareBodies } from './body-downloads';

describe('prepareBodies', () => {
  it("keeps the server's text, makes it when none came, and gives a missing body none", async () => {
    const html = '<h1>Rhubarb</h1><p>Compote &amp; crumble</p>';
    const [sent, made, none] = await prepareBodies([
      { id: 'a', content: html, text: 'as the server keeps it' },
      { id: 'b', content: html },
      { id: 'c', content: null, text: null },
    ]);
    expect(sent).toMatchObject({ id: 'a', text: 'as the server keeps it' });
    expect(made).toMatchObject({ id: 'b', text: htmlToText(html) });
    expect(made!.text).toBe('Rhubarb\nCompote & crumble');
    expect(none).toMatchObject({ id: 'c', text: '' });
    // What each takes on the device counts the text it stores.
    expect(sent!.size).toBe(bodySizeOf(html, 'as the server keeps it'));
    expect(made!.size).toBe(bodySizeOf(html, htmlToText(html)));
  });
});
