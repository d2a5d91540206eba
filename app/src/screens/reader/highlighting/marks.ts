// Painting highlights into the body: every piece of a text node a highlight covers is wrapped in its own
// <mark>, so a highlight can cross links, emphasis and paragraphs without moving any element. Where
// highlights overlap, the shared stretch gets one mark naming all of them.
import { isBlockElement, segmentsInRange, type TextModel } from './text-model';

export const MARK_CLASS = 'highlight-mark';
const OVERLAP_CLASS = 'highlight-mark--overlap';
const IDS_ATTRIBUTE = 'data-highlight-ids';

export interface PlacedHighlight {
  id: string;
  start: number;
  end: number;
}

/** Containers where a whitespace text node is layout, not a space between words. */
const NON_PHRASING_PARENTS = new Set(['UL', 'OL', 'DL', 'TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TR']);

/** Whitespace between blocks (e.g. between two paragraphs): wrapping it would put a mark where none fits. */
function isLayoutWhitespace(node: Text): boolean {
  if (node.data.trim().length > 0) return false;
  const parent = node.parentNode;
  if (parent && NON_PHRASING_PARENTS.has(parent.nodeName.toUpperCase())) return true;
  const previous = node.previousSibling;
  const next = node.nextSibling;
  return !previous || !next || isBlockElement(previous) || isBlockElement(next);
}

function wrapPiece(node: Text, from: number, to: number, ids: readonly string[]) {
  if (to < node.length) node.splitText(to);
  const target = from > 0 ? node.splitText(from) : node;
  const mark = document.createElement('mark');
  mark.className = ids.length > 1 ? `${MARK_CLASS} ${OVERLAP_CLASS}` : MARK_CLASS;
  mark.setAttribute(IDS_ATTRIBUTE, ids.join(' '));
  target.parentNode?.insertBefore(mark, target);
  mark.appendChild(target);
}

/**
 * Wraps the placed highlights' text in marks. `model` must describe `model.root` as it is now, without
 * marks (clearMarks first).
 */
export function applyMarks(model: TextModel, placed: readonly PlacedHighlight[]): void {
  const bounds = [...new Set(placed.flatMap(({ start, end }) => (end > start ? [start, end] : [])))].sort(
    (a, b) => a - b,
  );
  // Last stretch first: splitting a text node keeps its head as the same node, so the pieces of the
  // stretches before it stay valid.
  for (let i = bounds.length - 2; i >= 0; i -= 1) {
    const from = bounds[i]!;
    const to = bounds[i + 1]!;
    const ids = placed.filter((h) => h.start <= from && h.end >= to).map((h) => h.id);
    if (ids.length === 0) continue;
    const pieces = segmentsInRange(model, from, to);
    for (let p = pieces.length - 1; p >= 0; p -= 1) {
      const piece = pieces[p]!;
      if (piece.to > piece.from && !isLayoutWhitespace(piece.node)) {
        wrapPiece(piece.node, piece.from, piece.to, ids);
      }
    }
  }
}

/** Takes every mark out again, leaving the text as it was. */
export function clearMarks(root: Element): void {
  const marks = root.querySelectorAll(`mark.${MARK_CLASS}`);
  if (marks.length === 0) return;
  for (const mark of marks) mark.replaceWith(...mark.childNodes);
  root.normalize();
}

/** The highlights a mark paints (more than one where highlights overlap). */
export function highlightIdsOf(element: Element): string[] {
  const mark = element.closest(`mark.${MARK_CLASS}`);
  return mark?.getAttribute(IDS_ATTRIBUTE)?.split(' ').filter(Boolean) ?? [];
}

/** The first mark of a highlight, to scroll to. */
export function firstMarkOf(root: Element, id: string): HTMLElement | null {
  for (const mark of root.querySelectorAll<HTMLElement>(`mark.${MARK_CLASS}`)) {
    if (highlightIdsOf(mark).includes(id)) return mark;
  }
  return null;
}
