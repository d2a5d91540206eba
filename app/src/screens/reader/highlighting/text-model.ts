// The rendered article body as one string of text with a map back to its text nodes. Highlight positions
// are offsets into this string, so a highlight can cross paragraphs, links and emphasis and still be one
// range. Blocks add a line break between them (no text node holds it), which keeps the words of two
// paragraphs apart the way a reader sees them and a browser copies them.

const BLOCK_TAGS = new Set(
  `P DIV BR HR H1 H2 H3 H4 H5 H6 UL OL LI DL DT DD BLOCKQUOTE PRE TABLE THEAD TBODY TFOOT TR TD TH
   CAPTION FIGURE FIGCAPTION SECTION ARTICLE HEADER FOOTER ASIDE MAIN DETAILS SUMMARY ADDRESS`.split(/\s+/),
);

/** Elements whose text is not part of what is read. */
const SKIPPED_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);

export function isBlockElement(node: Node | null): boolean {
  return node !== null && node.nodeType === Node.ELEMENT_NODE && BLOCK_TAGS.has(node.nodeName.toUpperCase());
}

export interface TextSegment {
  node: Text;
  /** Where the node's text starts and ends in the model's text. */
  start: number;
  end: number;
}

export interface TextModel {
  root: Element;
  text: string;
  /** In document order, without gaps in between other than block breaks. */
  segments: TextSegment[];
}

export function buildTextModel(root: Element): TextModel {
  const segments: TextSegment[] = [];
  let text = '';
  // Set at a block's edge and written before the next text, so the text never ends in a break of ours.
  let pendingBreak = false;

  const visit = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const value = (node as Text).data;
      if (value.length === 0) return;
      if (pendingBreak && text.length > 0 && !text.endsWith('\n')) text += '\n';
      pendingBreak = false;
      segments.push({ node: node as Text, start: text.length, end: text.length + value.length });
      text += value;
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE || SKIPPED_TAGS.has(node.nodeName.toUpperCase())) return;
    const block = isBlockElement(node);
    if (block) pendingBreak = true;
    for (let child = node.firstChild; child; child = child.nextSibling) visit(child);
    if (block) pendingBreak = true;
  };

  for (let child = root.firstChild; child; child = child.nextSibling) visit(child);
  return { root, text, segments };
}

/**
 * The model offset of a DOM boundary point (a Range's start or end). A point between elements maps to
 * the start of the next text in document order, or to the end of the text when none follows.
 */
export function offsetOfPoint(model: TextModel, container: Node, offset: number): number {
  if (container.nodeType === Node.TEXT_NODE) {
    const segment = model.segments.find((candidate) => candidate.node === container);
    if (segment) return segment.start + Math.min(offset, segment.end - segment.start);
  }
  const point = document.createRange();
  point.setStart(container, offset);
  point.collapse(true);
  for (const segment of model.segments) {
    // The first text that starts at or after the point.
    if (point.comparePoint(segment.node, 0) >= 0) return segment.start;
  }
  return model.text.length;
}

/** Offsets of a range clipped to the model's root; null when the range lies outside it. */
export function offsetsOfRange(model: TextModel, range: Range): { start: number; end: number } | null {
  const rootRange = document.createRange();
  rootRange.selectNodeContents(model.root);
  // -1: the point lies before the body, 0: inside it, 1: after it.
  const startSide = rootRange.comparePoint(range.startContainer, range.startOffset);
  const endSide = rootRange.comparePoint(range.endContainer, range.endOffset);
  if (startSide > 0 || endSide < 0) return null;
  const start = startSide < 0 ? 0 : offsetOfPoint(model, range.startContainer, range.startOffset);
  const end = endSide > 0 ? model.text.length : offsetOfPoint(model, range.endContainer, range.endOffset);
  return end > start ? { start, end } : null;
}

/** The pieces of text nodes that [start, end) covers, first to last. */
export function segmentsInRange(
  model: TextModel,
  start: number,
  end: number,
): { node: Text; from: number; to: number }[] {
  const pieces: { node: Text; from: number; to: number }[] = [];
  for (const segment of model.segments) {
    if (segment.end <= start) continue;
    if (segment.start >= end) break;
    pieces.push({
      node: segment.node,
      from: Math.max(start, segment.start) - segment.start,
      to: Math.min(end, segment.end) - segment.start,
    });
  }
  return pieces;
}
