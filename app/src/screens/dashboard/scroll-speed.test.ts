import { describe, expect, it } from 'vitest';
import { FAST_SCREENS_PER_SECOND, ScrollSpeed, SETTLE_MS, SLOW_SCREENS_PER_SECOND } from './scroll-speed';

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

  it('keeps a fling until it slows below SLOW_SCREENS_PER_SECOND, so a slowing fling never flickers', () => {
    const speed = new ScrollSpeed();
    const screens = (perSecond: number) => (perSecond * 800) / 60; // moved in a frame of 1/60 s
    let position = 0;
    let time = 0;
    const look = (perSecond: number) => {
      position += screens(perSecond);
      time += 1000 / 60;
      return speed.sample(position, time, 800);
    };
    speed.sample(position, time, 800);
    expect(look(FAST_SCREENS_PER_SECOND + 1)).toBe(true);
    // Slowing past the line that started it: still a fling.
    expect(look(FAST_SCREENS_PER_SECOND - 0.5)).toBe(true);
    expect(look(SLOW_SCREENS_PER_SECOND + 0.5)).toBe(true);
    expect(look(SLOW_SCREENS_PER_SECOND - 0.5)).toBe(false);
    // Ended: the same speed again doesn't start one; only FAST_SCREENS_PER_SECOND does.
    expect(look(FAST_SCREENS_PER_SECOND - 0.5)).toBe(false);
    expect(look(FAST_SCREENS_PER_SECOND + 1)).toBe(true);
  });

  it('starts a fling afresh after a pause: a pause ended the last one', () => {
    const speed = new ScrollSpeed();
    speed.sample(0, 0, 800);
    expect(speed.sample(800, 16, 800)).toBe(true);
    // Still for SETTLE_MS, then moving at 3 screens a second: a read, not the old fling going on.
    const later = 16 + SETTLE_MS + 100;
    expect(speed.sample(800 + (3 * 800 * (later - 16)) / 1000, later, 800)).toBe(false);
  });

  it('answers no fling for two looks at the same moment', () => {
    const speed = new ScrollSpeed();
    speed.sample(0, 500, 900);
    expect(speed.sample(5000, 500, 900)).toBe(false);
  });
});
