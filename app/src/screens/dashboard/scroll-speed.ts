/** Faster than this many screens a second, the grid is being flung: its cards fly past unread. */
export const FAST_SCREENS_PER_SECOND = 4;
/** A fling has ended once the grid has moved slower than that for this long (or not at all). */
export const SETTLE_MS = 150;

/**
 * Tells a fling from a read: the speed between one look at the grid's place and the next. The looks are
 * those the windowed grid takes once a frame while it moves.
 */
export class ScrollSpeed {
  private last: { position: number; time: number } | null = null;

  /** Whether the grid moved faster than FAST_SCREENS_PER_SECOND since the last look. */
  sample(position: number, time: number, screenHeight: number): boolean {
    const last = this.last;
    this.last = { position, time };
    if (!last || time <= last.time) return false;
    const screensPerSecond = (Math.abs(position - last.position) / screenHeight / (time - last.time)) * 1000;
    return screensPerSecond > FAST_SCREENS_PER_SECOND;
  }
}
