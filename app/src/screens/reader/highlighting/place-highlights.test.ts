// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { describeSelection } from './anchor';
import { placeHighlights } from './place-highlights';
import { buildTextModel } from './text-model';
import { markTexts, rangeBetween, renderBody } from './test-dom';

const ARTICLE =
  '<h2>Rivers</h2>' +
  '<p>The river bends at <a href="https://example.com/town">the old town</a> and runs to the sea.</p>\n' +
  '<p>In <em>spring</em> the river bends again near the mill.</p>\n' +
  '<pre><code>const river = 1;</code></pre>';

/** Highlights as the server would store them, made from selections on a first rendering. */
function storedFrom(selections: { id: string; range: (root: Element) => Range }[]) {
  const root = renderBody(ARTICLE);
  return selections.map(({ id, range }) => {
    const draft = describeSelection(buildTextModel(root), range(root))!;
    return {
      id,
      highlighted_text: draft.text,
      context_before: draft.contextBefore,
      context_after: draft.contextAfter,
      position_start: draft.start,
    };
  });
}

describe('placeHighlights', () => {
  it('re-applies stored highlights to a fresh rendering, each at the occurrence it was made on', () => {
    const stored = storedFrom([
      { id: 'second-bend', range: (root) => rangeBetween(root, 'river bends', 'bends', { from: 1, to: 1 }) },
      { id: 'link', range: (root) => rangeBetween(root, 'bends at', 'town') },
    ]);
    const root = renderBody(ARTICLE);
    const placement = placeHighlights(root, stored);
    expect(placement.notPlaced).toEqual([]);
    const paragraphs = root.querySelectorAll('p');
    expect(markTexts(paragraphs[1]!)).toEqual(['river bends']);
    expect(markTexts(paragraphs[0]!)).toEqual(['bends at ', 'the old town']);
    expect(root.textContent).toBe(renderBody(ARTICLE).textContent);
  });

  it('lists a highlight whose text is gone as not placed and still paints the others', () => {
    const stored = storedFrom([
      { id: 'code', range: (root) => rangeBetween(root, 'const', 'river', { from: 0, to: 2 }) },
    ]);
    const gone = { ...stored[0]!, id: 'gone', highlighted_text: 'a sentence that was edited away' };
    const root = renderBody(ARTICLE);
    const placement = placeHighlights(root, [gone, ...stored]);
    expect(placement.notPlaced).toEqual(['gone']);
    expect(placement.placed.map((p) => p.id)).toEqual(['code']);
    expect(markTexts(root)).toEqual(['const river']);
  });

  it('paints the same marks when run again, and none when the highlights are gone', () => {
    const stored = storedFrom([
      { id: 'a', range: (root) => rangeBetween(root, 'river bends at', 'old') },
      { id: 'b', range: (root) => rangeBetween(root, 'old town', 'sea') },
    ]);
    const root = renderBody(ARTICLE);
    placeHighlights(root, stored);
    const once = root.innerHTML;
    placeHighlights(root, stored);
    expect(root.innerHTML).toBe(once);
    placeHighlights(root, []);
    expect(root.innerHTML).toBe(renderBody(ARTICLE).innerHTML);
  });
});
