// The sanitizer's output judged where it matters: injected into a real Chromium page the way the reader
// injects article HTML (innerHTML), with every script-reachable sink trapped. The unsanitized page is run
// through the same harness first, to prove the harness does catch execution.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixturePage } from '../../test/fixtures/fixture-server';
import { extractArticle } from './index';
import { launchChromium } from '../testing/launch-chromium';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser.close());

interface Outcome {
  /** Payload markers (xss-NN) that reached alert, confirm, prompt or print. */
  fired: string[];
  /** Requests for anything but images: scripts, styles, frames, documents, objects. */
  activeRequests: string[];
  /** Elements and attributes in the browser's own parse that can run code or restyle the reader. */
  dangerousMarkup: string[];
}

async function injectIntoReader(html: string): Promise<Outcome> {
  const page = await browser.newPage();
  const activeRequests: string[] = [];
  await page.route('**/*', async (route) => {
    const request = route.request();
    if (request.url() === 'https://reader.test/') {
      return route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html><body><main id="reader"></main></body></html>',
      });
    }
    if (request.resourceType() !== 'image') activeRequests.push(`${request.resourceType()} ${request.url()}`);
    return route.fulfill({ status: 404, body: '' });
  });
  await page.goto('https://reader.test/');
  const fired = await page.evaluate<string[]>(`(async (html) => {
    const fired = [];
    const record = (value) => fired.push(String(value).match(/xss-\\d+/)?.[0] ?? String(value));
    window.alert = window.confirm = window.prompt = window.print = record;
    window.addEventListener('securitypolicyviolation', (event) => record(event.blockedURI));
    document.getElementById('reader').innerHTML = html;
    // Fire the events that inline handlers listen for, as a reader moving around the page would.
    for (const element of document.querySelectorAll('#reader *')) {
      for (const type of ['mouseover', 'mouseenter', 'focus', 'toggle', 'animationstart', 'load', 'error']) {
        element.dispatchEvent(new Event(type));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    return fired;
  })(${JSON.stringify(html)})`);
  const dangerousMarkup = await page.evaluate<string[]>(`(() => {
    const found = [];
    for (const element of document.querySelectorAll('#reader *')) {
      const tag = element.tagName.toLowerCase();
      if (/^(script|style|iframe|frame|object|embed|form|input|button|base|meta|link|svg|math|template|textarea)$/.test(tag)) found.push('<' + tag + '>');
      for (const { name, value } of element.attributes) {
        if (/^on|^style$|^srcdoc$|action$/i.test(name)) found.push(tag + '[' + name + ']');
        if (/^(href|src|cite)$/.test(name) && !/^(https?|mailto):/.test(new URL(value, 'https://reader.test/').protocol)) found.push(tag + '[' + name + '=' + value + ']');
      }
    }
    return found;
  })()`);
  await page.close();
  return { fired, activeRequests, dangerousMarkup };
}

describe('sanitized articles in a real browser', () => {
  it('the harness catches the raw hostile article executing', async () => {
    const raw = await readFixturePage('xss-article');
    const outcome = await injectIntoReader(raw.slice(raw.indexOf('<article>'), raw.indexOf('</article>')));
    expect(new Set(outcome.fired).size).toBeGreaterThanOrEqual(10);
    expect(outcome.activeRequests.length).toBeGreaterThan(0);
    expect(outcome.dangerousMarkup.length).toBeGreaterThan(20);
  });

  it('nothing of the hostile article runs, loads active content or survives the browser parse', async () => {
    const article = await extractArticle(
      await readFixturePage('xss-article'),
      'https://ferry.example/notes/night-ferry',
    );
    expect(article.content).toContain('The first mate has worked the route for nineteen years.');
    expect(await injectIntoReader(article.content ?? '')).toEqual({
      fired: [],
      activeRequests: [],
      dangerousMarkup: [],
    });
  });
});
