import { describe, expect, it } from 'vitest';
import { progressAt, roundProgress, scrollForProgress } from './reading-progress';

const long = { bodyTop: 300, bodyHeight: 5000, viewportHeight: 800 };

describe('reading progress', () => {
  it('runs from 0 at the top to 1 when the end of the body is in view', () => {
    expect(progressAt(0, long)).toBe(0);
    expect(progressAt(2250, long)).toBe(0.5);
    expect(progressAt(4500, long)).toBe(1);
    expect(progressAt(9000, long)).toBe(1);
  });

  it('gives back the scroll position it was measured at', () => {
    for (const scrollY of [0, 1, 1234, 4499, 4500]) {
      expect(scrollForProgress(progressAt(scrollY, long), long)).toBe(scrollY);
    }
  });

  it('counts a body that fits in the viewport as read', () => {
    const short = { bodyTop: 200, bodyHeight: 300, viewportHeight: 800 };
    expect(progressAt(0, short)).toBe(1);
    expect(scrollForProgress(1, short)).toBe(0);
  });

  it('stores hundredths within 0..1', () => {
    expect(roundProgress(0.12345)).toBe(0.12);
    expect(roundProgress(-0.2)).toBe(0);
    expect(roundProgress(1.7)).toBe(1);
  });
});
