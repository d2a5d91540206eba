// Saving a tab: its rendered HTML read in the page (chrome.scripting with the activeTab grant the button,
// the shortcut or the menu gives), then sent with its address.
import { saveToLectern, type SaveOutcome } from './lectern-api';

/** Larger pages are sent by address alone (the server answers 413 past 5 MB; it fetches them itself). */
const PAGE_HTML_MAX_BYTES = 5 * 1024 * 1024;

async function renderedPage(tabId: number): Promise<{ url: string; html: string } | null> {
  try {
    const [injection] = await chrome.scripting.executeScript({
      target: { tabId },
      func: () => ({ url: location.href, html: document.documentElement.outerHTML }),
    });
    return injection?.result ?? null;
  } catch {
    // The browser's own pages and its web store can't be read by any extension: save by address.
    return null;
  }
}

export async function saveTab(tab: chrome.tabs.Tab, tags?: string[]): Promise<SaveOutcome> {
  if (tab.id === undefined || !tab.url || !/^https?:/.test(tab.url)) {
    return { kind: 'failed', reason: 'Only web pages (http and https) can be saved' };
  }
  const page = await renderedPage(tab.id);
  const html =
    page && new TextEncoder().encode(page.html).length <= PAGE_HTML_MAX_BYTES ? page.html : undefined;
  return saveToLectern({
    url: page?.url ?? tab.url,
    ...(html === undefined ? {} : { html }),
    ...(tags && tags.length > 0 ? { tags } : {}),
  });
}

export async function activeTab(): Promise<chrome.tabs.Tab | undefined> {
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return tab;
}
