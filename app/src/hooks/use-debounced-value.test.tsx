// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isEmptyText, useDebouncedValue } from './use-debounced-value';

function Settled({ value }: { value: string }) {
  return <p>{`[${useDebouncedValue(value, 300, isEmptyText)}]`}</p>;
}

describe('useDebouncedValue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('answers a value once it has stopped changing for the delay', () => {
    const { container, rerender } = render(<Settled value="" />);
    rerender(<Settled value="wal" />);
    act(() => vi.advanceTimersByTime(200));
    rerender(<Settled value="walk" />);
    act(() => vi.advanceTimersByTime(299));
    expect(container.textContent).toBe('[]');
    act(() => vi.advanceTimersByTime(1));
    expect(container.textContent).toBe('[walk]');
  });

  it('answers an emptied box at once, and a word typed next never brings back the one before', () => {
    const { container, rerender } = render(<Settled value="walk" />);
    expect(container.textContent).toBe('[walk]');
    rerender(<Settled value="" />);
    expect(container.textContent).toBe('[]');
    rerender(<Settled value="river" />);
    // Not "walk" again while "river" waits for its pause.
    expect(container.textContent).toBe('[]');
    act(() => vi.advanceTimersByTime(300));
    expect(container.textContent).toBe('[river]');
  });
});
