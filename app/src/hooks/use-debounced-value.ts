import { useEffect, useState } from 'react';

/**
 * The value once it has stopped changing for `delayMs`: the dashboard's and Highlights' searches wait for
 * a pause in typing (spec section 9: 300 ms).
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
