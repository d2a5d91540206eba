/** Faster than this many screens a second, the grid is being flung: its cards fly past unread. */
export const FAST_SCREENS_PER_SECOND = 4;
/**
 * A fling lasts until the grid moves slower than this: a fling slowing down past FAST_SCREENS_PER_SECOND,
 * its speed read a little off from frame to frame, would otherwise show and hide the cards' lines by turns.
 */
export const SLOW_SCREENS_PER_SECOND = 2;
/** A fling has ended once the grid has moved slower than that for this long (or not at all). */
export const SETTLE_MS = 150;

/**
 * Tells a fling from a read: the speed between one look at the grid's place and the next. The looks are
 * those the windowed grid takes once a frame while it moves.
 */
export class ScrollSpeed {
  private last: { position: number; time: number } | null = null;
  private flung = false;

  /**
   * Whether the grid is being flung: it moved faster than FAST_SCREENS_PER_SECOND since the last look, or
   * faster than SLOW_SCREENS_PER_SECOND in a fling going on (its last look less than SETTLE_MS before).
   */
  sample(position: number, time: number, screenHeight: number): boolean {
    const last = this.last;
    this.last = { position, time };
    if (!last || time <= last.time) {
      this.flung = false;
      return false;
    }
    const screensPerSecond = (Math.abs(position - last.position) / screenHeight / (time - last.time)) * 1000;
    const goingOn = this.flung && time - last.time < SETTLE_MS;
    this.flung = screensPerSecond > (goingOn ? SLOW_SCREENS_PER_SECOND : FAST_SCREENS_PER_SECOND);
    return this.flung;
  }
}
