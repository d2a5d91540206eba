import { describe, expect, it } from 'vitest';
import { FAST_SCREENS_PER_SECOND, ScrollSpeed } from './scroll-speed';

describe('ScrollSpeed', () => {
  it('calls a screen a frame a fling, and a wheel step a read', () => {
    const speed = new ScrollSpeed();
    expect(speed.sample(0, 1000, 900)).toBe(false); // nothing to compare with yet
    expect(speed.sample(900, 1016, 900)).toBe(true); // a screen in a frame
    expect(speed.sample(1000, 1116, 900)).toBe(false); // a wheel step of 100 px in 100 ms
  });

  it('draws the line at FAST_SCREENS_PER_SECOND screens a second, whichever way', () => {
    const atTheLine = new ScrollSpeed();
    atTheLine.sample(10_000, 0, 800);
    expect(atTheLine.sample(10_000 + FAST_SCREENS_PER_SECOND * 800, 1000, 800)).toBe(false);
    const upwards = new ScrollSpeed();
    upwards.sample(10_000, 0, 800);
    expect(upwards.sample(10_000 - FAST_SCREENS_PER_SECOND * 800 - 10, 1000, 800)).toBe(true);
  });

  it('answers no fling for two looks at the same moment', () => {
    const speed = new ScrollSpeed();
    speed.sample(0, 500, 900);
    expect(speed.sample(5000, 500, 900)).toBe(false);
  });
});
