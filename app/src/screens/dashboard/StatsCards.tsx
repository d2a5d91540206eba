import type { ArticleStats } from '@lectern/shared-schema';

const CARDS: readonly { key: keyof ArticleStats; label: string }[] = [
  { key: 'total', label: 'Total' },
  { key: 'unread', label: 'Unread' },
  { key: 'archived', label: 'Archived' },
  { key: 'favorites', label: 'Favorites' },
];

/** The four counts at the top of the dashboard; dashes until the device has answered. */
export function StatsCards({ stats }: { stats: ArticleStats | undefined }) {
  return (
    <ul className="stats-grid" aria-label="Library statistics">
      {CARDS.map(({ key, label }) => (
        <li key={key} className={`stat-card stat-card--${key}`}>
          <span className="stat-card__value">{stats ? stats[key].toLocaleString() : '–'}</span>
          <span className="stat-card__label">{label}</span>
        </li>
      ))}
    </ul>
  );
}
