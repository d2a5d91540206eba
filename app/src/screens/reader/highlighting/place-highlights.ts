// Re-applying an article's stored highlights to its body: find each one, paint the ones found, and say
// which could not be placed so the panel can list them instead of losing them silently.
import type { Highlight } from '@lectern/shared-schema';
import { locateHighlight } from './anchor';
import { applyMarks, clearMarks, type PlacedHighlight } from './marks';
import { buildTextModel } from './text-model';

export interface Placement {
  placed: PlacedHighlight[];
  /** Ids of highlights whose text is no longer in the body. */
  notPlaced: string[];
}

type StoredHighlight = Pick<
  Highlight,
  'id' | 'highlighted_text' | 'context_before' | 'context_after' | 'position_start'
>;

export function placeHighlights(root: Element, highlights: readonly StoredHighlight[]): Placement {
  clearMarks(root);
  const model = buildTextModel(root);
  const placed: PlacedHighlight[] = [];
  const notPlaced: string[] = [];
  for (const highlight of highlights) {
    const range = locateHighlight(model, {
      text: highlight.highlighted_text,
      contextBefore: highlight.context_before,
      contextAfter: highlight.context_after,
      positionStart: highlight.position_start,
    });
    if (range) placed.push({ id: highlight.id, ...range });
    else notPlaced.push(highlight.id);
  }
  applyMarks(model, placed);
  return { placed, notPlaced };
}
