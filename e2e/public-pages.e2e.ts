// The pages anyone may open, in Chromium against the built app and the real server: a shared reading list
// created through the API and opened by an anonymous visitor (every field, the 'Anonymous' fallback, the
// empty text, the not-found state), and the five information pages.
import { MESSAGES, SERVER_ERRORS } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagesSettled } from '../sync-server/test/support/api-client';
import { newAccount } from './support/app-actions';
import { startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { checkScreen } from './support/check-screen';
import { googleSignInToken } from './support/google-stand-in';

let world: BrowserWorld;

beforeAll(async () => {
  world = await startBrowserWorld({ google: true });
});

afterAll(async () => {
  await world?.close();
});

async function createList(token: string, body: { name: string; description: string; isPublic: boolean }) {
  const answer = await world.api.as(token).post('/lists', body);
  expect(answer.status).toBe(201);
  return answer.body.list as { id: string; share_id: string };
}

describe('a shared reading list', () => {
  it('shows every field of a public list to an anonymous visitor', async () => {
    const account = newAccount('curator');
    const { body } = await world.api.post('/auth/register', account);
    const api = world.api.as(body.token);
    const garden = (
      await api.post('/articles', { url: world.site.url('/gardening'), tags: ['garden', 'winter'] })
    ).body.article;
    const saturn = (await api.post('/articles', { url: world.site.url('/astronomy') })).body.article;
    // Its picture is archived on the server after the save: the list shows the archived copy.
    await imagesSettled(api, garden.id);
    const list = await createList(body.token, {
      name: 'Weekend reading',
      description: 'Two slow reads for a quiet Sunday.',
      isPublic: true,
    });
    await api.post(`/lists/${list.id}/articles`, { articleId: garden.id });
    await api.post(`/lists/${list.id}/articles`, { articleId: saturn.id });

    const page = await world.newPage();
    await page.goto(`/list/${list.share_id}`);
    await page.getByRole('heading', { name: 'Weekend reading', level: 1 }).waitFor();
    await page.getByText('Two slow reads for a quiet Sunday.').waitFor();
    const facts = await page.locator('.public-list__facts').innerText();
    expect(facts).toContain('2 articles');
    // The email's local part, never the profile name (a Google account's is a full name).
    expect(facts).toContain(`Curated by ${account.email.split('@')[0]}`);
    expect(facts).toMatch(/Created \w+/);
    const links = page.locator('.public-card');
    expect(await links.count()).toBe(2);
    const first = links.filter({ hasText: 'Winter Gardening Guide' });
    expect(await first.getAttribute('href')).toBe(world.site.url('/gardening'));
    expect(await first.getAttribute('target')).toBe('_blank');
    expect(await first.getAttribute('rel')).toBe('noopener noreferrer');
    const text = await first.innerText();
    for (const part of ['How to keep a vegetable garden going', 'Ada Green', 'min read', 'garden', 'winter'])
      expect(text).toContain(part);
    // The card shows the server's own copy of the picture (issue 14), which loads without any token.
    const picture = first.locator('img');
    expect(await picture.getAttribute('src')).toMatch(/^\/api\/images\/[0-9a-f-]{36}\/[0-9a-f]{64}\.png$/);
    expect(
      await picture.evaluate(async (image: HTMLImageElement) => {
        if (!image.complete)
          await new Promise((resolve) => image.addEventListener('load', resolve, { once: true }));
        return image.naturalWidth;
      }),
    ).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'Sign In' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Create your own lists' }).getAttribute('href')).toBe(
      '/login',
    );
    expect(await checkScreen(page, 'public-list')).toEqual([]);
    await page.context().close();
  });

  it("says 'Anonymous' for an owner without a username and shows the empty text", async () => {
    const token = await googleSignInToken(world.server.url);
    const list = await createList(token, { name: 'Saved for later', description: '', isPublic: true });
    const page = await world.newPage();
    await page.goto(`/list/${list.share_id}`);
    await page.getByText(MESSAGES.publicListEmpty).waitFor();
    expect(await page.locator('.public-list__facts').innerText()).toContain(
      `Curated by ${MESSAGES.anonymousOwner}`,
    );
    expect(await page.locator('.public-list__facts').innerText()).toContain('0 articles');
    expect(await checkScreen(page, 'public-list-empty')).toEqual([]);
    await page.context().close();
  });

  it('shows Reading List Not Found with the server’s text for unknown and private lists', async () => {
    const { body } = await world.api.post('/auth/register', newAccount('private'));
    const hidden = await createList(body.token, { name: 'Mine only', description: '', isPublic: false });
    const page = await world.newPage();
    for (const shareId of ['no-such-list', hidden.share_id]) {
      await page.goto(`/list/${shareId}`);
      await page.getByRole('heading', { name: MESSAGES.publicListNotFound }).waitFor();
      await page.getByText(SERVER_ERRORS.listNotFound, { exact: true }).waitFor();
      await page.getByRole('link', { name: 'Create your own lists' }).waitFor();
    }
    expect(await checkScreen(page, 'public-list-not-found')).toEqual([]);

    // A failure without the server's text: spec section 8's fallback.
    await page.route('**/api/lists/public/**', (route) => route.fulfill({ status: 503, body: '' }));
    await page.goto(`/list/${hidden.share_id}`);
    await page.getByText(MESSAGES.publicListLoadFailed, { exact: true }).waitFor();
    await page.context().close();
  });
});

describe('the information pages', () => {
  it('opens About, FAQ, Contact, Blog and Help with the static bar', async () => {
    const page = await world.newPage();
    for (const [path, heading] of [
      ['/about', 'About'],
      ['/faq', 'FAQ'],
      ['/contact', 'Contact'],
      ['/blog', 'Blog'],
      ['/help', 'Help'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const menu = page.getByRole('navigation', { name: 'Main' });
      expect(await menu.getByRole('link').allInnerTexts()).toEqual([
        'About',
        'FAQ',
        'Contact',
        'Blog',
        'Help',
      ]);
      expect(await menu.getByRole('link', { name: heading }).getAttribute('aria-current')).toBe('page');
      expect(await checkScreen(page, `public${path.replace('/', '-')}`)).toEqual([]);
    }

    await page.goto('/faq');
    await page.locator('.accordion__trigger').first().waitFor();
    expect(await page.locator('.accordion__trigger').count()).toBe(15);
    await page.goto('/contact');
    await page.getByLabel('Message', { exact: false }).first().waitFor();
    for (const label of ['Name', 'Email', 'Subject', 'Message'])
      expect(
        await page
          .getByLabel(label, { exact: false })
          .first()
          .evaluate((field) => field.hasAttribute('required')),
      ).toBe(true);
    await page.goto('/help#newsletter');
    await page.locator('#newsletter').waitFor();
    for (const key of ['S', '/', 'Esc', '?']) await page.locator('kbd', { hasText: key }).first().waitFor();
    await page.context().close();
  });
});
