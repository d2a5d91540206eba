import type { CSSProperties } from 'react';

export interface SkeletonProps {
  shape?: 'line' | 'block' | 'circle';
  width?: CSSProperties['width'];
  height?: CSSProperties['height'];
  className?: string;
}

/** A shimmering placeholder. Hidden from assistive tech: the container it fills should say aria-busy. */
export function Skeleton({ shape = 'line', width, height, className }: SkeletonProps) {
  return (
    <span
      className={['skeleton', `skeleton--${shape}`, className].filter(Boolean).join(' ')}
      style={{ width, height }}
      aria-hidden="true"
    />
  );
}

/** The placeholder of an article card: image, two title lines, a description line and the meta row. */
export function SkeletonCard() {
  return (
    <div className="card skeleton-card" aria-hidden="true">
      <Skeleton shape="block" className="skeleton-card__image" />
      <Skeleton width="90%" height="1.1rem" />
      <Skeleton width="65%" height="1.1rem" />
      <Skeleton width="100%" />
      <div className="skeleton-card__meta">
        <Skeleton width="4rem" />
        <Skeleton width="3rem" />
      </div>
    </div>
  );
}
