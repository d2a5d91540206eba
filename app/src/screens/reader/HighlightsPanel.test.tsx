// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Highlight } from '@lectern/shared-schema';
import { HighlightsPanel } from './HighlightsPanel';

function highlight(n: number, text = `Passage number ${n}`): Highlight {
  return {
    id: `h${n}`,
    article_id: 'a1',
    highlighted_text: text,
    context_before: '',
    context_after: '',
    position_start: n * 10,
    position_end: n * 10 + text.length,
    color: 'yellow',
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
    article_title: 'An article',
    article_image: null,
  };
}

function renderPanel(highlights: Highlight[], notPlaced: string[] = []) {
  const calls = { goTo: [] as string[], deleted: [] as string[], closed: 0 };
  render(
    <HighlightsPanel
      highlights={highlights}
      notPlaced={new Set(notPlaced)}
      anchor={{ top: 10, left: 10, width: 40, height: 20 }}
      triggerRef={createRef()}
      onGoTo={(h) => calls.goTo.push(h.id)}
      onDelete={(h) => calls.deleted.push(h.id)}
      onClose={() => (calls.closed += 1)}
    />,
  );
  return calls;
}

afterEach(cleanup);

describe('HighlightsPanel', () => {
  it('shows at most 3 highlights, then "+ n more" that shows the rest', () => {
    renderPanel([1, 2, 3, 4, 5].map((n) => highlight(n)));
    const panel = screen.getByRole('dialog', { name: 'Highlights (5)' });
    expect(within(panel).getAllByRole('listitem')).toHaveLength(3);
    fireEvent.click(within(panel).getByRole('button', { name: '+ 2 more' }));
    expect(within(panel).getAllByRole('listitem')).toHaveLength(5);
    expect(within(panel).queryByRole('button', { name: /more$/ })).toBeNull();
  });

  it('has no "+ n more" for three or fewer', () => {
    renderPanel([1, 2, 3].map((n) => highlight(n)));
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: /more$/ })).toBeNull();
  });

  it('lists a highlight whose text is gone as not placed, without a way to jump to it', () => {
    renderPanel([highlight(1), highlight(2, 'Rewritten away')], ['h2']);
    const missing = screen.getByText('Rewritten away').closest('li')!;
    expect(missing.textContent).toContain('Not placed');
    expect(within(missing).queryByRole('button', { name: 'Rewritten away' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Passage number 1' })).toBeTruthy();
  });

  it('jumps to a highlight and asks to delete one', () => {
    const calls = renderPanel([highlight(1), highlight(2)]);
    fireEvent.click(screen.getByRole('button', { name: 'Passage number 2' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete highlight' })[0]!);
    expect(calls.goTo).toEqual(['h2']);
    expect(calls.deleted).toEqual(['h1']);
  });

  it('closes on Escape', () => {
    const calls = renderPanel([highlight(1)]);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(calls.closed).toBe(1);
  });
});
