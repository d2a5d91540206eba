import { describe, expect, it } from 'vitest';
import { nowIso } from './timestamps';

describe('nowIso', () => {
  it('writes the moment in UTC with milliseconds', () => {
    expect(nowIso(new Date(Date.UTC(2026, 10, 23, 14, 37, 3, 120)))).toBe('2026-11-23T14:37:03.120Z');
    expect(nowIso(new Date(Date.UTC(2026, 0, 1)))).toBe('2026-01-01T00:00:00.000Z');
  });

  it('orders as text the way the moments order in time', () => {
    const earlier = nowIso(new Date(Date.UTC(2026, 8, 9, 23, 59, 59, 999)));
    const later = nowIso(new Date(Date.UTC(2026, 9, 10)));
    expect(earlier < later).toBe(true);
  });

  it('is the current time when no moment is given', () => {
    const before = Date.now();
    const at = Date.parse(nowIso());
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });
});
