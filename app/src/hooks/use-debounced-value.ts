import { useEffect, useState } from 'react';

/**
 * The value once it has stopped changing for `delayMs`: the dashboard's and Highlights' searches wait for
 * a pause in typing (spec section 9: 300 ms). A value `settlesAtOnce` accepts is the answer at once (an
 * emptied search box shows the whole list again without the pause), and is what a value typed next
 * waits from: the last value before it doesn't come back meanwhile.
 */
export function useDebouncedValue<T>(
  value: T,
  delayMs: number,
  settlesAtOnce: (value: T) => boolean = () => false,
): T {
  const [settled, setSettled] = useState(value);
  const atOnce = settlesAtOnce(value);
  useEffect(() => {
    if (atOnce) {
      setSettled(value);
      return undefined;
    }
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs, atOnce]);
  return atOnce ? value : settled;
}

/** For `settlesAtOnce`: an emptied search box. */
export const isEmptyText = (text: string): boolean => text === '';
