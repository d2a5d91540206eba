// Sign-in, sign-up and the session rules of spec section 4 in Chromium against the built app and the
// real server: redirects, the browser-enforced rules of section 5, the server's error texts of section 8,
// 'Loading...', a refused token, /auth/callback and Google sign-in through a local stand-in provider.
import { GOOGLE_SIGN_IN_ERRORS, MESSAGES, SERVER_ERRORS } from '@lectern/shared-schema';
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
    // A page reloaded or gone meanwhile needs no answer.
    await route.continue().catch(() => undefined);
  });
}

describe('signing in and out', () => {
  it('sends visitors of protected and unknown paths to /login, which has the hero, features and menu', async () => {
    const page = await world.newPage();
    await page.goto('/highlights');
    await page.waitForURL('**/login');
    await page.goto('/no/such/page');
    await page.waitForURL('**/login');
    // The URL changes before the login screen renders: wait for the screen before reading its menu.
    await page.getByRole('heading', { name: 'Save it now. Read it properly later.' }).waitFor();
    await page.getByRole('heading', { name: 'Everything a reader needs, nothing that distracts' }).waitFor();
    const menu = page.getByRole('navigation', { name: 'Main' });
    expect(await menu.getByRole('link').allInnerTexts()).toEqual(['About', 'FAQ', 'Contact', 'Blog', 'Help']);
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

  it("shows 'Loading...' while the user loads, opens as the kept user at once, and a refused token ends at /login", async () => {
    const page = await world.newPage();
    const account = await signUp(page);
    // A device that kept no user (its database emptied, the token left) loads the user from the server.
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const opened = indexedDB.open('lectern');
          opened.onsuccess = () => {
            const removal = opened.result.transaction('meta', 'readwrite').objectStore('meta').delete('user');
            removal.onsuccess = () => resolve();
            removal.onerror = () => reject(new Error('the kept user could not be removed'));
          };
          opened.onerror = () => reject(new Error('the database did not open'));
        }),
    );
    await slowMe(page, 1500);
    await page.reload();
    await page.getByText(MESSAGES.loading).waitFor();
    expect(await checkScreen(page, 'loading')).toEqual([]);
    await page.getByRole('heading', { name: 'My Articles' }).waitFor();
    // The user is kept again: the next start shows the dashboard before the server has answered.
    await page.unroute('**/api/auth/me');
    await slowMe(page, 3_000);
    let checked = false;
    const check = page.waitForResponse('**/api/auth/me', { timeout: 20_000 }).then(() => (checked = true));
    await page.reload();
    await page.getByRole('heading', { name: 'My Articles' }).waitFor();
    expect(checked).toBe(false);
    // The held check ends before the route goes, so nothing answers a request of a page that is gone.
    await check;
    await page.unroute('**/api/auth/me');

    // The token is revoked elsewhere (signed out on another device): the next request gets a 401.
    const token = await tokenOf(page);
    expect((await world.api.as(token).post('/auth/logout')).status).toBeLessThan(300);
    // The live-update stream may hear the session end first and send the page to /login itself, which
    // cuts this reload short: either way the page must end at /login.
    await page.reload().catch((error: Error) => {
      if (!/ERR_ABORTED|Not attached to an active page/.test(error.message)) throw error;
    });
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

  it('handles /auth/callback: nothing or an error code goes to /login with a fixed text', async () => {
    const page = await world.newPage();
    await page.goto('/auth/callback');
    await page.waitForURL('**/login');
    await page.goto('/auth/callback?error=google_failed');
    await page.waitForURL('**/login');
    await page.getByRole('alert').getByText(SERVER_ERRORS.googleFailed).waitFor();
    await page.goto('/auth/callback?error=google_email_taken');
    await page.waitForURL('**/login');
    await page.getByRole('alert').getByText(GOOGLE_SIGN_IN_ERRORS.google_email_taken).waitFor();
    // Text of anyone's choosing in the link never reaches the screen.
    await page.goto(`/auth/callback?error=${encodeURIComponent('Your account is locked. Call +1 555 0100')}`);
    await page.waitForURL('**/login');
    await page.getByRole('alert').getByText(SERVER_ERRORS.googleFailed).waitFor();
    expect(await page.content()).not.toContain('555 0100');
    await page.context().close();
  });

  it('refuses a sign-in code this tab did not ask for', async () => {
    const page = await world.newPage();
    // A code from the attacker's own Google sign-in, sent to the victim as a link.
    const attacker = await world.newPage();
    await attacker.goto('/login');
    let attackerCode = '';
    attacker.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/auth/callback') attackerCode = url.searchParams.get('code') ?? '';
    });
    await attacker.route('**/api/auth/google/exchange', (route) => route.abort());
    await attacker.getByRole('link', { name: 'Continue with Google' }).click();
    await eventually(async () => expect(attackerCode).not.toBe(''));
    await attacker.context().close();

    await page.goto(`/auth/callback?code=${attackerCode}`);
    await page.waitForURL('**/login');
    await page.getByRole('alert').getByText(GOOGLE_SIGN_IN_ERRORS.google_not_started).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.context().close();
  });

  it('signs in with Google through a one-time code: no token in any address the browser visits', async () => {
    const page = await world.newPage();
    const visited: string[] = [];
    page.on('request', (request) => visited.push(request.url()));
    page.on('framenavigated', (frame) => visited.push(frame.url()));
    await page.goto('/login');
    expect(await page.getByRole('link', { name: 'Continue with Google' }).getAttribute('href')).toBe(
      '/api/auth/google',
    );
    // The exchange held back, so 'Logging you in...' can be seen on /auth/callback.
    await page.route('**/api/auth/google/exchange', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.getByText(MESSAGES.loggingIn).waitFor();
    expect(path(page)).toBe('/auth/callback');
    expect(await checkScreen(page, 'auth-callback')).toEqual([]);
    await page.getByRole('heading', { name: 'My Articles' }).waitFor();
    expect(path(page)).toBe('/');
    // No name from Google: the bar shows the email.
    await page.getByRole('link', { name: new RegExp(GOOGLE_ACCOUNT.email) }).waitFor();

    const token = await tokenOf(page);
    expect(token).toBeTruthy();
    const callbacks = visited.filter((url) => new URL(url).pathname === '/auth/callback');
    expect(callbacks.length).toBeGreaterThan(0);
    for (const url of callbacks) expect([...new URL(url).searchParams.keys()]).toEqual(['code']);
    for (const url of visited) {
      expect(url).not.toContain(token ?? 'no token');
      expect(url).not.toMatch(/[?&]token=/);
    }
    // The nonce was used up: the same callback again is refused.
    const usedCallback = callbacks[0] ?? '';
    await page.evaluate(() => localStorage.removeItem('token'));
    await page.goto(new URL(usedCallback).pathname + new URL(usedCallback).search);
    await page.waitForURL('**/login');
    await page.getByRole('alert').getByText(GOOGLE_SIGN_IN_ERRORS.google_not_started).waitFor();
    await page.context().close();
  });

  it('signs out everywhere from the profile, after a confirmation', async () => {
    const page = await world.newPage();
    const account = await signUp(page);
    const laptop = await world.api.post('/auth/login', { email: account.email, password: account.password });
    expect(laptop.status).toBe(200);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await dialog.waitFor();
    expect(await checkScreen(page, 'profile-sign-out-everywhere')).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await world.api.as(laptop.body.token).get('/auth/me')).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect((await world.api.as(laptop.body.token).get('/auth/me')).status).toBe(401);
    await page.context().close();
  });

  it('shows the static bar with the account on public pages, or Sign In', async () => {
    const page = await world.newPage();
    await page.goto('/about');
    expect(await page.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
    const account = await signUp(page);
    await page.goto('/about');
    const menu = page.getByRole('navigation', { name: 'Main' });
    // The screens show once the data layer's chunk has loaded, a moment after the page itself.
    await menu.getByRole('link', { name: 'About' }).waitFor();
    expect(await menu.getByRole('link').allInnerTexts()).toEqual(['About', 'FAQ', 'Contact', 'Blog', 'Help']);
    await page.getByRole('link', { name: new RegExp(account.username) }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await page.context().close();
  });
});
