// Issue 10 in Chromium against the built app and the real server: saving an address the library already
// holds says "Already in your library" and shows one card; a list's "New link" replaces its share link and
// the old link stops working.
import { MESSAGES } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, cardTitles, signUp, submitSave, toast, tokenOf } from './support/app-actions';
import { DESKTOP, startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { eventually } from './support/eventually';
import { pageWithoutWorker, saveThroughApi } from './support-reader/reader-actions';

let world: BrowserWorld;

beforeAll(async () => {
  world = await startBrowserWorld();
});

afterAll(async () => {
  await world?.close();
});

describe('saving an address already in the library', () => {
  it('says "Already in your library" and keeps one card', async () => {
    const page = await world.newPage();
    await signUp(page);
    await submitSave(page, world.site.url('/gardening'));
    await toast(page, 'Saved “Winter Gardening Guide”');
    await submitSave(page, `${world.site.url('/gardening')}?utm_source=newsletter#comments`);
    await toast(page, MESSAGES.alreadyInLibrary);
    await card(page, 'Winter Gardening Guide').waitFor();
    expect(await cardTitles(page)).toEqual(['Winter Gardening Guide']);
    await page.context().close();
  });
});

describe('a new share link', () => {
  it('replaces the list’s link; the old one shows the not-found page', async () => {
    const page = await pageWithoutWorker(world, DESKTOP);
    await signUp(page);
    const [articleId] = await saveThroughApi(world, page, ['/astronomy']);
    const server = world.api.as(await tokenOf(page));
    const { list } = (await server.post('/lists', { name: 'Star parties' })).body;
    await server.post(`/lists/${list.id}/articles`, { articleId });
    await page.goto(`/lists?list=${list.id}`);
    const shareLink = page.getByLabel('Share link');
    await eventually(async () => (await shareLink.inputValue()).endsWith(`/list/${list.share_id}`));
    const oldUrl = await shareLink.inputValue();

    await page.getByRole('button', { name: 'New link' }).click();
    await page.getByText(MESSAGES.shareLinkRotated).waitFor();
    await eventually(async () => (await shareLink.inputValue()) !== oldUrl);
    const newUrl = await shareLink.inputValue();
    const { body } = await server.get(`/lists/${list.id}`);
    expect(newUrl).toBe(`${world.server.url}/list/${body.list.share_id}`);

    const visitor = await pageWithoutWorker(world, DESKTOP);
    await visitor.goto(new URL(oldUrl).pathname);
    await visitor.getByRole('heading', { name: MESSAGES.publicListNotFound }).waitFor();
    await visitor.goto(new URL(newUrl).pathname);
    await visitor.getByRole('heading', { level: 1, name: 'Star parties' }).waitFor();
    await visitor.context().close();
    await page.context().close();
  });
});
