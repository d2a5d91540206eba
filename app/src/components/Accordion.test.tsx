// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Accordion } from './Accordion';

const ITEMS = [
  { id: 'save', title: 'How do I save?', content: <p>Paste a link.</p> },
  { id: 'offline', title: 'Does it work offline?', content: <p>Yes.</p> },
  { id: 'export', title: 'Can I export?', content: <p>Any time.</p> },
];

describe('Accordion', () => {
  afterEach(cleanup);

  it('starts closed and toggles a panel from its header button', () => {
    render(<Accordion items={ITEMS} />);
    const trigger = screen.getByRole('button', { name: 'Does it work offline?' });
    const panel = document.getElementById(trigger.getAttribute('aria-controls')!)!;
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(panel.hidden).toBe(true);

    fireEvent.click(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(panel.hidden).toBe(false);
    expect(panel.textContent).toBe('Yes.');

    fireEvent.click(trigger);
    expect(panel.hidden).toBe(true);
  });

  it('lets several panels stay open and honours defaultOpenIds', () => {
    render(<Accordion items={ITEMS} defaultOpenIds={['save']} />);
    fireEvent.click(screen.getByRole('button', { name: 'Can I export?' }));
    const expanded = screen.getAllByRole('button').filter((b) => b.getAttribute('aria-expanded') === 'true');
    expect(expanded.map((b) => b.textContent)).toEqual(['How do I save?', 'Can I export?']);
  });

  it('puts each header button inside a heading of the requested level', () => {
    // Within what this test rendered: test files share their worker's document (isolate: false), and a
    // heading another file left in it once made four.
    const { container } = render(<Accordion items={ITEMS} headingLevel={2} />);
    const headings = within(container).getAllByRole('heading', { level: 2 });
    expect(headings.map((heading) => heading.textContent)).toEqual(ITEMS.map((item) => item.title));
  });

  it('moves focus between headers with the arrow, Home and End keys, wrapping at the ends', () => {
    render(<Accordion items={ITEMS} />);
    const [first, second, third] = screen.getAllByRole('button');
    first!.focus();
    fireEvent.keyDown(first!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(second);
    fireEvent.keyDown(second!, { key: 'End' });
    expect(document.activeElement).toBe(third);
    fireEvent.keyDown(third!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(third);
    fireEvent.keyDown(third!, { key: 'Home' });
    expect(document.activeElement).toBe(first);
  });
});
