// The few WebExtension APIs the extension uses, typed by hand: the full @types/chrome is not a dependency
// of this repository, and these are stable across Chromium and Firefox (which also offers `chrome.*`).
declare namespace chrome {
  namespace runtime {
    const id: string;
    const lastError: { message?: string } | undefined;
    function getURL(path: string): string;
    function openOptionsPage(): Promise<void>;
    function sendMessage<T = unknown>(message: unknown): Promise<T>;
    const onInstalled: Event<() => void>;
    const onMessage: Event<
      (message: unknown, sender: unknown, sendResponse: (response: unknown) => void) => boolean | void
    >;
  }
  interface Event<T> {
    addListener(callback: T): void;
  }
  namespace storage {
    const local: {
      get(keys: string[]): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
      remove(keys: string[]): Promise<void>;
    };
  }
  namespace tabs {
    interface Tab {
      id?: number;
      url?: string;
      title?: string;
      active: boolean;
      windowId: number;
    }
    function query(query: {
      active?: boolean;
      lastFocusedWindow?: boolean;
      currentWindow?: boolean;
    }): Promise<Tab[]>;
    function get(tabId: number): Promise<Tab>;
  }
  namespace scripting {
    function executeScript<T>(injection: {
      target: { tabId: number };
      func: () => T;
    }): Promise<{ result?: T }[]>;
  }
  namespace contextMenus {
    interface OnClickData {
      menuItemId: string | number;
      linkUrl?: string;
      pageUrl?: string;
    }
    function create(properties: { id: string; title: string; contexts: string[] }): void;
    function removeAll(): Promise<void>;
    const onClicked: Event<(info: OnClickData, tab?: tabs.Tab) => void>;
  }
  namespace commands {
    const onCommand: Event<(command: string, tab?: tabs.Tab) => void>;
  }
  namespace action {
    function setBadgeText(details: { text: string; tabId?: number }): Promise<void>;
    function setBadgeBackgroundColor(details: { color: string; tabId?: number }): Promise<void>;
    function setTitle(details: { title: string; tabId?: number }): Promise<void>;
  }
  namespace permissions {
    function contains(permissions: { origins: string[] }): Promise<boolean>;
    function request(permissions: { origins: string[] }): Promise<boolean>;
  }
}
