// How an import's numbers read on the screen.
import type { ImportView } from '@lectern/shared-schema';

const number = new Intl.NumberFormat('en-US');

export function formatCount(count: number): string {
  return number.format(count);
}

/** "412 KB", "3.4 MB". */
export function fileSizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Rows of the file dealt with so far: written, skipped as already there, or failed. */
export function rowsDone(view: ImportView): number {
  return view.imported + view.skipped + view.failed;
}

/** Pages fetched or given up on. */
export function pagesDone(view: ImportView): number {
  return view.pages_fetched + view.pages_failed;
}

export type ImportPhase = 'queued' | 'writing' | 'fetching' | 'done' | 'failed';

export function importPhase(view: ImportView): ImportPhase {
  if (view.status === 'done' || view.status === 'failed' || view.status === 'queued') return view.status;
  return rowsDone(view) < view.total ? 'writing' : 'fetching';
}

export const PHASE_LABELS: Record<ImportPhase, string> = {
  queued: 'Waiting to start',
  writing: 'Adding to your library',
  fetching: 'Fetching pages',
  done: 'Done',
  failed: 'Stopped',
};

const dateTime = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateTime.format(date);
}
