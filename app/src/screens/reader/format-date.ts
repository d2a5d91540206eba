const DATE = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric' });

/** 'Jan 15, 2026'; null for a missing or unreadable date. */
export function formatDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : DATE.format(date);
}
