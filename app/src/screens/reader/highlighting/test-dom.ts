// Builders for the highlighting tests: an article body in the page and ranges over its text.

/** Puts the HTML into a fresh element in the document and answers that element. */
export function renderBody(html: string): HTMLElement {
  document.body.innerHTML = '';
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

/** The text node whose data contains `needle` (the `nth` one, counting from 0). */
export function textNodeWith(root: Node, needle: string, nth = 0): Text {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let seen = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if ((node as Text).data.includes(needle) && seen++ === nth) return node as Text;
  }
  throw new Error(`no text node contains "${needle}"`);
}

/** A range from the start of `from` to the end of `to`, each the first text node containing it. */
export function rangeBetween(root: Node, from: string, to: string, occurrence = { from: 0, to: 0 }): Range {
  const startNode = textNodeWith(root, from, occurrence.from);
  const endNode = textNodeWith(root, to, occurrence.to);
  const range = document.createRange();
  range.setStart(startNode, startNode.data.indexOf(from));
  range.setEnd(endNode, endNode.data.indexOf(to) + to.length);
  return range;
}

export function markTexts(root: Element): string[] {
  return [...root.querySelectorAll('mark')].map((mark) => mark.textContent ?? '');
}
