// The "Save to Lectern" bookmarklet. It runs in the page the reader is looking at, which has no Lectern
// token (the token lives in Lectern's origin) and may forbid fetches to other sites (a strict
// Content-Security-Policy). So it fetches nothing: it opens a small Lectern window (/save?url=…) and hands
// that window the page's HTML by postMessage. The window, on Lectern's own origin, has the token, checks
// who sent the message and its shape, saves through the app's data layer and tells the page the outcome,
// which the bookmarklet shows as a small note. Neither window.open nor postMessage is governed by CSP.

/** Where a save from the bookmarklet lands: a small window on Lectern's origin. */
export const SAVE_WINDOW_PATH = '/save';

/** localStorage key of this device's bookmarklet key (see bookmarkletKey). */
const KEY_STORAGE = 'lectern.bookmarklet-key';

/**
 * A random key baked into the bookmarklet made on this device. The save window saves at once only for a
 * page that hands it this key; any other page that opens /save gets a "Save this page?" question, so a
 * site can't quietly put articles into the reader's library. It guards one click, not the account: it
 * grants nothing on the API.
 */
export function bookmarkletKey(storage: Storage = localStorage): string {
  const known = storage.getItem(KEY_STORAGE);
  if (known) return known;
  const key = crypto.randomUUID();
  storage.setItem(KEY_STORAGE, key);
  return key;
}

/** True when the key a page handed over is this device's own bookmarklet key. */
export function isOwnBookmarkletKey(key: unknown, storage: Storage = localStorage): boolean {
  return typeof key === 'string' && key.length > 0 && storage.getItem(KEY_STORAGE) === key;
}

/** Messages between the page (the bookmarklet) and the save window. */
export const MESSAGE = {
  /** Window → page: ready for the page. */
  ready: 'lectern:ready',
  /** Page → window: {url, html, key}. */
  page: 'lectern:page',
  /** Window → page: {text, signIn} to show on the page. */
  result: 'lectern:result',
} as const;

export interface PageMessage {
  type: typeof MESSAGE.page;
  url: string;
  html: string;
  key?: string;
}

/** The page's message, when `data` has its exact shape and names the address the window was opened for. */
export function pageMessageOf(data: unknown, url: string): PageMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Record<string, unknown>;
  if (message.type !== MESSAGE.page || message.url !== url || typeof message.html !== 'string') return null;
  return {
    type: MESSAGE.page,
    url,
    html: message.html,
    ...(typeof message.key === 'string' ? { key: message.key } : {}),
  };
}

/**
 * The bookmarklet's code. Plain ES2017 in a string (not a compiled function) so that what the reader drags
 * is exactly this; `origin` is Lectern's address, `key` this device's bookmarklet key.
 */
export function bookmarkletSource(origin: string, key: string): string {
  return `(()=>{const L=${JSON.stringify(origin)},K=${JSON.stringify(key)},u=location.href;
const note=(t,s)=>{const d=document.createElement('div');d.setAttribute('role','status');d.setAttribute('data-lectern-note','');
d.style.cssText='all:initial;position:fixed;z-index:2147483647;top:16px;right:16px;max-width:320px;padding:12px 16px;border-radius:8px;background:#1f2937;color:#fff;font:14px/1.4 system-ui,sans-serif;box-shadow:0 4px 16px rgba(0,0,0,.3)';
d.textContent=t;if(s){const a=document.createElement('a');a.href=L+'/login';a.target='_blank';a.rel='noopener';a.textContent='Sign in to Lectern';a.style.cssText='all:initial;display:block;margin-top:6px;color:#93c5fd;text-decoration:underline;cursor:pointer;font:inherit';d.append(a)}
(document.body||document.documentElement).append(d);setTimeout(()=>d.remove(),s?15000:5000)};
const w=open(L+'${SAVE_WINDOW_PATH}?url='+encodeURIComponent(u),'lectern-save','popup,width=460,height=560');
if(!w){note('Your browser blocked Lectern\\u2019s window. Allow pop-ups for this site, then click Save to Lectern again.');return}
const on=e=>{if(e.source!==w||e.origin!==L||!e.data||typeof e.data.type!=='string')return;
if(e.data.type==='${MESSAGE.ready}')w.postMessage({type:'${MESSAGE.page}',url:u,key:K,html:document.documentElement.outerHTML},L);
if(e.data.type==='${MESSAGE.result}'){removeEventListener('message',on);note(String(e.data.text),e.data.signIn===true)}};
addEventListener('message',on)})()`;
}

/** The link to drag to the bookmarks bar. */
export function bookmarkletHref(origin: string, key: string): string {
  return `javascript:${encodeURIComponent(bookmarkletSource(origin, key).replace(/\n/g, ''))}`;
}
