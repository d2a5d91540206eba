// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FlingContext, useSettledImageUrl } from './settled-image';

function Picture({ url }: { url: string | null }) {
  const shown = useSettledImageUrl(url);
  return <p>{shown ?? 'placeholder'}</p>;
}

const view = (flung: boolean, url: string | null) => (
  <FlingContext.Provider value={flung}>
    <Picture url={url} />
  </FlingContext.Provider>
);

describe('useSettledImageUrl', () => {
  afterEach(cleanup);

  it('starts no picture while the grid is flung, and starts it once the fling ends', () => {
    const { container, rerender } = render(view(true, 'https://example.com/a.jpg'));
    expect(container.textContent).toBe('placeholder');
    rerender(view(false, 'https://example.com/a.jpg'));
    expect(container.textContent).toBe('https://example.com/a.jpg');
  });

  it('keeps a picture already started through a fling, and holds back the next card’s in the same nodes', () => {
    const { container, rerender } = render(view(false, 'https://example.com/a.jpg'));
    rerender(view(true, 'https://example.com/a.jpg'));
    expect(container.textContent).toBe('https://example.com/a.jpg');
    // The card's nodes now show another article (card-slots.ts), flung past.
    rerender(view(true, 'https://example.com/b.jpg'));
    expect(container.textContent).toBe('placeholder');
  });

  it('shows pictures as they come outside a grid that tells of flings', () => {
    const { container } = render(<Picture url="https://example.com/a.jpg" />);
    expect(container.textContent).toBe('https://example.com/a.jpg');
  });
});
