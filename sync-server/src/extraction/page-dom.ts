// The slice of the DOM the extraction code uses, typed here because the server compiles without the DOM
// library (linkedom's own typings lean on it and collapse to `any` without it).
import { parseHTML } from 'linkedom';

/** A node of the tree, as the sanitizer walks it (sanitize-article.ts). */
export interface PageNode {
  /** 1 for an element, 3 for text; anything else (comments, CDATA) the sanitizer drops. */
  readonly nodeType: number;
  /** A text node's text. */
  readonly nodeValue: string | null;
  /** An element's tag name, lower case for HTML. */
  readonly localName?: string;
  readonly firstChild: PageNode | null;
  readonly nextSibling: PageNode | null;
  readonly attributes?: Iterable<{ readonly name: string; readonly value: string }>;
}

export interface PageElement extends PageNode {
  readonly tagName: string;
  textContent: string | null;
  innerHTML: string;
  readonly previousElementSibling: PageElement | null;
  readonly nextElementSibling: PageElement | null;
  readonly parentElement: PageElement | null;
  readonly firstElementChild: PageElement | null;
  readonly childElementCount: number;
  readonly attributes: Iterable<{ readonly name: string; readonly value: string }>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelector(selectors: string): PageElement | null;
  querySelectorAll(selectors: string): Iterable<PageElement>;
  replaceWith(...nodes: PageElement[]): void;
  closest(selectors: string): PageElement | null;
  remove(): void;
}

export interface PageDocument {
  readonly documentElement: PageElement;
  readonly body: PageElement;
  querySelector(selectors: string): PageElement | null;
  querySelectorAll(selectors: string): Iterable<PageElement>;
  createElement(tagName: string): PageElement;
}

export function parsePage(html: string): PageDocument {
  const parsed = parseDocument(html);
  // linkedom builds no <html>/<body> for fragments or tag-soup; give those a proper document shell.
  return parsed.documentElement && hasBody(parsed)
    ? parsed
    : parseDocument(`<!doctype html><html><head></head><body>${html}</body></html>`);
}

function parseDocument(html: string): PageDocument {
  // Typed through PageDocument above; linkedom's declared type is unusable without the DOM library.
  const { document } = parseHTML(html) as { document: PageDocument };
  return document;
}

function hasBody(document: PageDocument): boolean {
  try {
    return document.body != null;
  } catch {
    return false;
  }
}

/** An attribute's value whatever the case of its name: linkedom keeps names as written (HTTP-EQUIV). */
export function attributeOf(element: PageElement, name: string): string | null {
  const value = element.getAttribute(name);
  if (value !== null) return value;
  for (const attribute of element.attributes)
    if (attribute.name.toLowerCase() === name) return attribute.value;
  return null;
}
