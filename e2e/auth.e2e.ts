// Sign-in, sign-up and the session rules of spec section 4 in Chromium against the built app and the
// real server: redirects, the browser-enforced rules of section 5, the server's error texts of section 8,
// 'Loading...', a refused token, /auth/callback and Google sign-in through a local stand-in provider.
import { MESSAGES, SERVER_ERRORS } from '@lectern/shared-schema';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, signIn, signUp, tokenOf } from './support/app-actions';
import { startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { checkScreen } from './support/check-screen';
import { eventually } from './support/eventually';
import { GOOGLE_ACCOUNT } from './support/google-stand-in';

let world: BrowserWorld;

beforeAll(async () => {
  world = await startBrowserWorld({ google: true });
});

afterAll(async () => {
  await world?.close();
});

const path = (page: Page) => new URL(page.url()).pathname;

/** Holds GET /api/auth/me back, so the states shown while the user loads can be seen. */
async function slowMe(page: Page, delayMs: number) {
  await page.route('**/api/auth/me', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await route.continue();
  });
}

describe('signing in and out', () => {
  it('sends visitors of protected and unknown paths to /login, which has the hero, features and menu', async () => {
    const page = await world.newPage();
    await page.goto('/highlights');
    await page.waitForURL('**/login');
    await page.goto('/no/such/page');
    await page.waitForURL('**/login');
    const menu = page.getByRole('navigation', { name: 'Main' });
    expect(await menu.getByRole('link').allInnerTexts()).toEqual(['About', 'FAQ', 'Contact', 'Blog', 'Help']);
    await page.getByRole('heading', { name: 'Save it now. Read it properly later.' }).waitFor();
    await page.getByRole('heading', { name: 'Everything a reader needs, nothing that distracts' }).waitFor();
    expect(await page.getByRole('link', { name: 'Continue with Google' }).getAttribute('href')).toBe(
      '/api/auth/google',
    );
    expect(await checkScreen(page, 'login')).toEqual([]);
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await page.getByLabel('Username').waitFor();
    expect(await checkScreen(page, 'login-sign-up')).toEqual([]);
    await page.context().close();
  });

  it('holds sign-up to the rules of spec section 5 and shows the server’s refusals', async () => {
    const page = await world.newPage();
    const account = newAccount();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    const submit = page.getByRole('button', { name: 'Create Account' });
    const validity = (label: string) =>
      page.getByLabel(label).evaluate((input: HTMLInputElement) => ({
        valueMissing: input.validity.valueMissing,
        typeMismatch: input.validity.typeMismatch,
        tooShort: input.validity.tooShort,
      }));

    // The browser enforces required fields, the email format and the password length.
    await submit.click();
    expect((await validity('Username')).valueMissing).toBe(true);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('short');
    await submit.click();
    expect((await validity('Email')).typeMismatch).toBe(true);
    expect((await validity('Password')).tooShort).toBe(true);
    expect(path(page)).toBe('/login');

    // A username of spaces gets past the browser, not past the card.
    await page.getByLabel('Username').fill('   ');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await submit.click();
    await page.getByText('Please choose a username').waitFor();

    await page.getByLabel('Username').fill(account.username);
    await submit.click();
    await page.getByRole('heading', { name: 'My Articles' }).waitFor();
    expect(path(page)).toBe('/');
    await page.getByRole('link', { name: new RegExp(account.username) }).waitFor();

    // Signed in, /login leads home.
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // The server's texts, as they come.
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await page.getByLabel('Username').fill('someone else');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await submit.click();
    await page.getByRole('alert').getByText(SERVER_ERRORS.emailTaken).waitFor();
    await page.getByRole('button', { name: 'Sign In', exact: true }).first().click();
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill('not the password');
    await page.locator('form').getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').getByText(SERVER_ERRORS.invalidCredentials).waitFor();
    expect(await checkScreen(page, 'login-error')).toEqual([]);

    // No answer at all: spec section 8's fallback.
    await page.route('**/api/auth/login', (route) => route.abort('connectionrefused'));
    await page.locator('form').getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').getByText(MESSAGES.authFailed, { exact: true }).waitFor();
    await page.unroute('**/api/auth/login');

    await signIn(page, account);
    expect(path(page)).toBe('/');
    await page.context().close();
  });

  it("shows 'Loading...' while the user loads, and a refused token ends at /login without it", async () => {
    const page = await world.newPage();
    const account = await signUp(page);
    await slowMe(page, 1500);
    await page.reload();
    await page.getByText(MESSAGES.loading).waitFor();
    expect(await checkScreen(page, 'loading')).toEqual([]);
    await page.getByRole('heading', { name: 'My Articles' }).waitFor();
    await page.unroute('**/api/auth/me');

    // The token is revoked elsewhere (signed out on another device): the next request gets a 401.
    const token = await tokenOf(page);
    expect((await world.api.as(token).post('/auth/logout')).status).toBeLessThan(300);
    await page.reload();
    await page.waitForURL('**/login');
    // The 401 may also send the page to /login with a full load: read once the page has settled there.
    await eventually(async () => {
      await page.waitForLoadState('load');
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await page.getByRole('button', { name: 'Sign In' }).first().waitFor({ timeout: 2_000 });
    });
    await signIn(page, account);
    await page.context().close();
  });

  it('handles /auth/callback: nothing or an error goes to /login, Google’s token signs in', async () => {
    const page = await world.newPage();
    await page.goto('/auth/callback');
    await page.waitForURL('**/login');
    await page.goto(`/auth/callback?error=${encodeURIComponent(SERVER_ERRORS.googleFailed)}`);
    await page.waitForURL('**/login');
    await page.getByRole('alert').getByText(SERVER_ERRORS.googleFailed).waitFor();

    await slowMe(page, 1500);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.getByText(MESSAGES.loggingIn).waitFor();
    expect(path(page)).toBe('/auth/callback');
    expect(await checkScreen(page, 'auth-callback')).toEqual([]);
    await page.getByRole('heading', { name: 'My Articles' }).waitFor();
    expect(path(page)).toBe('/');
    // No name from Google: the bar shows the email.
    await page.getByRole('link', { name: new RegExp(GOOGLE_ACCOUNT.email) }).waitFor();
    await page.context().close();
  });

  it('shows the static bar with the account on public pages, or Sign In', async () => {
    const page = await world.newPage();
    await page.goto('/about');
    expect(await page.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
    const account = await signUp(page);
    await page.goto('/about');
    const menu = page.getByRole('navigation', { name: 'Main' });
    expect(await menu.getByRole('link').allInnerTexts()).toEqual(['About', 'FAQ', 'Contact', 'Blog', 'Help']);
    await page.getByRole('link', { name: new RegExp(account.username) }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await page.context().close();
  });
});
