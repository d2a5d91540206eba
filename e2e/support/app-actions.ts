// What a reader does in the app, spelled once for every test: sign up, sign in, save an article.
import { TOKEN_STORAGE_KEY } from '@lectern/shared-schema';
import type { Page } from 'playwright-core';

let accounts = 0;

export interface Account {
  email: string;
  password: string;
  username: string;
}

export function newAccount(prefix = 'reader'): Account {
  accounts += 1;
  const tag = `${Date.now().toString(36)}${accounts}`;
  return {
    email: `${prefix}-${tag}@example.com`,
    password: 'correct horse battery',
    username: `${prefix} ${tag}`,
  };
}

/** Signs up through /login's card and waits for the dashboard. */
export async function signUp(page: Page, account: Account = newAccount()): Promise<Account> {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('heading', { name: 'My Articles' }).waitFor();
  return account;
}

export async function signIn(page: Page, account: Account): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.locator('form').getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('heading', { name: 'My Articles' }).waitFor();
}

/** Fills the dashboard's save form and submits it (the caller waits for the outcome it expects). */
export async function submitSave(page: Page, url: string, tags = ''): Promise<void> {
  await page.getByLabel('Article URL').fill(url);
  await page.getByLabel('Tags (optional)').fill(tags);
  await page.getByRole('button', { name: 'Save Article' }).click();
}

export async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY);
  if (!token) throw new Error('no token in localStorage');
  return token;
}

/** The card of an article in the grid, found by its title. */
export function card(page: Page, title: string) {
  return page.locator('article.article-card', { has: page.getByRole('heading', { name: title }) });
}

/** The titles of the cards in the grid, in order. */
export function cardTitles(page: Page): Promise<string[]> {
  return page.locator('article.article-card .article-card__title').allInnerTexts();
}

/** The figure on one of the stats cards (Total, Unread, Archived, Favorites). */
export async function statValue(page: Page, label: string): Promise<string> {
  const statCard = page.locator('.stat-card', { has: page.locator('.stat-card__label', { hasText: label }) });
  return statCard.locator('.stat-card__value').innerText();
}

/** Waits for a toast with exactly this text (error toasts are alerts, the others statuses). */
export async function toast(page: Page, text: string, type: 'error' | 'other' = 'other') {
  const region = page.getByRole('region', { name: 'Notifications' });
  const found = region.getByRole(type === 'error' ? 'alert' : 'status').filter({ hasText: text });
  await found.first().waitFor();
  return found;
}
