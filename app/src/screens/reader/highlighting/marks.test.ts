// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { applyMarks, clearMarks, firstMarkOf, highlightIdsOf, MARK_CLASS } from './marks';
import { buildTextModel } from './text-model';
import { markTexts, renderBody } from './test-dom';

function rangeOf(root: Element, text: string, nth = 0) {
  const model = buildTextModel(root);
  let start = -1;
  for (let i = 0; i <= nth; i += 1) start = model.text.indexOf(text, start + 1);
  if (start < 0) throw new Error(`"${text}" not in the body`);
  return { model, start, end: start + text.length };
}

describe('applyMarks', () => {
  it('wraps each piece of text a highlight covers, across a link and emphasis, leaving the text alone', () => {
    const html = '<p>Read <a href="/x">the <em>fine</em> docs</a> today.</p>';
    const root = renderBody(html);
    const { model, start, end } = rangeOf(root, 'ad the fine docs tod');
    applyMarks(model, [{ id: 'h1', start, end }]);
    expect(markTexts(root)).toEqual(['ad ', 'the ', 'fine', ' docs', ' tod']);
    expect(root.textContent).toBe('Read the fine docs today.');
    expect(root.querySelector('a')!.getAttribute('href')).toBe('/x');
    expect(root.querySelector('a em mark')).not.toBeNull();
  });

  it('marks inside each paragraph and never between them', () => {
    const root = renderBody('<p>First para ends.</p>\n<p>Second para starts.</p>');
    const { model, start, end } = rangeOf(root, 'ends.\n\nSecond');
    applyMarks(model, [{ id: 'h1', start, end }]);
    expect(markTexts(root)).toEqual(['ends.', 'Second']);
    for (const mark of root.querySelectorAll('mark')) expect(mark.parentElement!.tagName).toBe('P');
  });

  it('keeps a space between two inline elements inside the mark', () => {
    const root = renderBody('<p><em>one</em> <b>two</b></p>');
    const { model, start, end } = rangeOf(root, 'one two');
    applyMarks(model, [{ id: 'h1', start, end }]);
    expect(markTexts(root).join('')).toBe('one two');
  });

  it('gives the overlap of two highlights one mark naming both', () => {
    const root = renderBody('<p>alpha beta gamma delta</p>');
    const a = rangeOf(root, 'alpha beta gamma');
    const b = rangeOf(root, 'beta gamma delta');
    applyMarks(a.model, [
      { id: 'a', start: a.start, end: a.end },
      { id: 'b', start: b.start, end: b.end },
    ]);
    const marks = [...root.querySelectorAll('mark')];
    expect(marks.map((m) => [m.textContent, highlightIdsOf(m)])).toEqual([
      ['alpha ', ['a']],
      ['beta gamma', ['a', 'b']],
      [' delta', ['b']],
    ]);
    expect(marks[1]!.classList.contains('highlight-mark--overlap')).toBe(true);
    expect(firstMarkOf(root, 'b')).toBe(marks[1]);
    expect(firstMarkOf(root, 'missing')).toBeNull();
  });

  it('marks a highlight inside another one', () => {
    const root = renderBody('<p>one two three four</p>');
    const outer = rangeOf(root, 'one two three four');
    const inner = rangeOf(root, 'two');
    applyMarks(outer.model, [
      { id: 'outer', start: outer.start, end: outer.end },
      { id: 'inner', start: inner.start, end: inner.end },
    ]);
    expect(markTexts(root)).toEqual(['one ', 'two', ' three four']);
    expect(highlightIdsOf(root.querySelectorAll('mark')[1]!)).toEqual(['outer', 'inner']);
  });
});

describe('clearMarks', () => {
  it('gives back the body exactly as it was', () => {
    const html = '<p>Read <a href="/x">the <em>fine</em> docs</a> today.</p><p>More text here.</p>';
    const root = renderBody(html);
    const { model, start, end } = rangeOf(root, 'fine docs today.\nMore');
    applyMarks(model, [{ id: 'h1', start, end }]);
    expect(root.querySelectorAll(`mark.${MARK_CLASS}`).length).toBeGreaterThan(1);
    clearMarks(root);
    expect(root.innerHTML).toBe(html);
    expect(root.querySelector('p')!.childNodes).toHaveLength(3);
  });

  it('leaves marks that are part of the article', () => {
    const html = '<p>An <mark>author mark</mark> stays.</p>';
    const root = renderBody(html);
    clearMarks(root);
    expect(root.innerHTML).toBe(html);
  });
});
