// The extension's service worker: the keyboard shortcut (Alt+Shift+S) saves the active tab, the context
// menu saves a link without opening it. The toolbar button opens the popup, which saves by itself.
import { saveToLectern, type SaveOutcome } from './lectern-api';
import { activeTab, saveTab } from './save-tab';

export const SAVE_PAGE_COMMAND = 'save-page';
export const SAVE_LINK_MENU = 'save-link';

/** The outcome on the toolbar button (no popup opens for the shortcut or the menu). */
async function showOutcome(outcome: SaveOutcome, tabId?: number): Promise<void> {
  const look = {
    saved: { text: '✓', color: '#1f6f6b', title: 'Saved to Lectern' },
    alreadySaved: { text: '✓', color: '#5b6b7a', title: 'Already in your Lectern library' },
    signedOut: { text: '!', color: '#b45309', title: 'Sign in to save pages to Lectern (click here)' },
    failed: {
      text: '!',
      color: '#b91c1c',
      title: `Couldn’t save: ${'reason' in outcome ? outcome.reason : ''}`,
    },
  }[outcome.kind];
  const target = tabId === undefined ? {} : { tabId };
  await chrome.action.setBadgeBackgroundColor({ color: look.color, ...target });
  await chrome.action.setBadgeText({ text: look.text, ...target });
  await chrome.action.setTitle({ title: look.title, ...target });
}

export async function onCommand(command: string): Promise<SaveOutcome | null> {
  if (command !== SAVE_PAGE_COMMAND) return null;
  const tab = await activeTab();
  if (!tab) return null;
  const outcome = await saveTab(tab);
  await showOutcome(outcome, tab.id);
  return outcome;
}

export async function onContextMenuClick(
  info: chrome.contextMenus.OnClickData,
  tab?: chrome.tabs.Tab,
): Promise<SaveOutcome | null> {
  if (info.menuItemId !== SAVE_LINK_MENU || !info.linkUrl) return null;
  // The link is saved by its address: the server fetches it, the reader stays on this page.
  const outcome = await saveToLectern({ url: info.linkUrl });
  await showOutcome(outcome, tab?.id);
  return outcome;
}

chrome.runtime.onInstalled.addListener(() => {
  void chrome.contextMenus
    .removeAll()
    .then(() =>
      chrome.contextMenus.create({ id: SAVE_LINK_MENU, title: 'Save link to Lectern', contexts: ['link'] }),
    );
});
chrome.commands.onCommand.addListener((command) => void onCommand(command));
chrome.contextMenus.onClicked.addListener((info, tab) => void onContextMenuClick(info, tab));

// The listeners' own handlers, for the end-to-end tests: a headless browser fires no keyboard shortcut
// and opens no context menu, so the tests call the very functions those events call.
Object.assign(globalThis, { lectern: { onCommand, onContextMenuClick } });
