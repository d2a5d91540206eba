import { describe, expect, it } from 'vitest';
import { popoverPosition } from './popover-position';

const viewport = { width: 1000, height: 800 };
const popup = { width: 300, height: 150 };

describe('popoverPosition', () => {
  it('centres the popup under the anchor when there is room', () => {
    expect(popoverPosition({ top: 100, left: 400, width: 200, height: 20 }, popup, viewport)).toEqual({
      top: 130,
      left: 350,
    });
  });

  it('goes above an anchor near the bottom of the viewport', () => {
    const position = popoverPosition({ top: 700, left: 400, width: 200, height: 20 }, popup, viewport);
    expect(position.top).toBe(700 - 10 - 150);
  });

  it('stays inside the viewport at the edges', () => {
    expect(popoverPosition({ top: 100, left: 0, width: 10, height: 20 }, popup, viewport).left).toBe(8);
    expect(popoverPosition({ top: 100, left: 990, width: 10, height: 20 }, popup, viewport).left).toBe(692);
    const tall = popoverPosition({ top: 5, left: 0, width: 10, height: 790 }, popup, viewport);
    expect(tall.top).toBeGreaterThanOrEqual(8);
    expect(tall.top + popup.height).toBeLessThanOrEqual(800 - 8);
  });
});
