import { useEffect, useState } from 'react';

/** The sticky navigation bar's height, followed as it wraps or unwraps; null before it is measured. */
export function useNavbarHeight(): number | null {
  const [height, setHeight] = useState<number | null>(null);
  useEffect(() => {
    const navbar = document.querySelector<HTMLElement>('.navbar');
    if (!navbar) return;
    const measure = () => setHeight(navbar.getBoundingClientRect().height);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(navbar);
    return () => observer.disconnect();
  }, []);
  return height;
}
