// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_CONTEXT_LENGTH } from '@lectern/shared-schema';
import { describeSelection, locateHighlight, type HighlightDraft } from './anchor';
import { buildTextModel } from './text-model';
import { rangeBetween, renderBody } from './test-dom';

const anchorOf = (draft: HighlightDraft) => ({
  text: draft.text,
  contextBefore: draft.contextBefore,
  contextAfter: draft.contextAfter,
  positionStart: draft.start,
});

describe('describeSelection', () => {
  it('takes the text, its place and the context either side, across a link and emphasis', () => {
    const root = renderBody('<p>Before it. The <a href="#">linked <em>words</em></a> follow here.</p>');
    const model = buildTextModel(root);
    const draft = describeSelection(model, rangeBetween(root, 'The', 'follow'))!;
    expect(draft.text).toBe('The linked words follow');
    expect(draft.contextBefore).toBe('Before it. ');
    expect(draft.contextAfter).toBe(' here.');
    expect(model.text.slice(draft.start, draft.end)).toBe(draft.text);
  });

  it('cuts the context at 50 characters either side', () => {
    const long = 'x'.repeat(80);
    const root = renderBody(`<p>${long} middle part ${long}</p>`);
    const draft = describeSelection(buildTextModel(root), rangeBetween(root, 'middle', 'part'))!;
    expect(draft.contextBefore).toHaveLength(HIGHLIGHT_CONTEXT_LENGTH);
    expect(draft.contextAfter).toHaveLength(HIGHLIGHT_CONTEXT_LENGTH);
    expect(draft.contextBefore).toBe(`${'x'.repeat(HIGHLIGHT_CONTEXT_LENGTH - 1)} `);
  });

  it('trims surrounding space and refuses fewer than 3 characters', () => {
    const root = renderBody('<p>aa  ok  bb and more</p>');
    const model = buildTextModel(root);
    expect(describeSelection(model, rangeBetween(root, '  ok  ', '  ok  '))).toBeNull();
    const draft = describeSelection(model, rangeBetween(root, '  ok  b', '  ok  b'))!;
    expect(draft.text).toBe('ok  b');
    expect(model.text.slice(draft.start, draft.end)).toBe('ok  b');
  });

  it('spans paragraphs with a line break between their words', () => {
    const root = renderBody('<p>End of the first.</p>\n<p>Start of the second.</p>');
    const draft = describeSelection(buildTextModel(root), rangeBetween(root, 'first', 'Start'))!;
    expect(draft.text).toBe('first.\n\nStart');
  });
});

describe('locateHighlight', () => {
  const twice =
    '<p>The quick fox jumps over the dog in the morning.</p>' +
    '<p>Later, at night, the quick fox jumps again beside the river.</p>';

  it('finds the occurrence the selection was made on when a phrase occurs twice', () => {
    const root = renderBody(twice);
    const model = buildTextModel(root);
    const second = describeSelection(model, rangeBetween(root, 'quick fox', 'jumps', { from: 1, to: 1 }))!;
    const first = describeSelection(model, rangeBetween(root, 'quick fox', 'jumps'))!;
    expect(second.start).toBeGreaterThan(first.start);
    expect(locateHighlight(model, anchorOf(second))).toEqual({ start: second.start, end: second.end });
    expect(locateHighlight(model, anchorOf(first))).toEqual({ start: first.start, end: first.end });
  });

  it('trusts the context over a stale position when text was added before it', () => {
    const root = renderBody(twice);
    const draft = describeSelection(
      buildTextModel(root),
      rangeBetween(root, 'quick fox', 'jumps', { from: 1, to: 1 }),
    )!;
    const edited = renderBody(`<p>A new opening paragraph that pushes everything along.</p>${twice}`);
    const model = buildTextModel(edited);
    const found = locateHighlight(model, anchorOf(draft))!;
    expect(found.start).toBe(model.text.lastIndexOf('quick fox'));
  });

  it('falls back on the nearest position when the contexts agree equally', () => {
    const root = renderBody('<p>same same same</p>');
    const model = buildTextModel(root);
    const found = locateHighlight(model, {
      text: 'same',
      contextBefore: '',
      contextAfter: '',
      positionStart: 5,
    });
    expect(found).toEqual({ start: 5, end: 9 });
  });

  it('matches despite different spacing between blocks', () => {
    const stored = describeSelection(
      buildTextModel(renderBody('<p>End of the first.</p>\n\n<p>Start of the second.</p>')),
      rangeBetween(document.body, 'first', 'Start'),
    )!;
    const model = buildTextModel(renderBody('<p>End of the first.</p><p>Start of the second.</p>'));
    const found = locateHighlight(model, anchorOf(stored))!;
    expect(model.text.slice(found.start, found.end)).toBe('first.\nStart');
  });

  it('answers null when the text is no longer in the body', () => {
    const model = buildTextModel(renderBody('<p>Entirely different words.</p>'));
    const missing = { text: 'quick fox', contextBefore: '', contextAfter: '', positionStart: 0 };
    expect(locateHighlight(model, missing)).toBeNull();
    expect(locateHighlight(model, { ...missing, text: '   ' })).toBeNull();
  });
});
