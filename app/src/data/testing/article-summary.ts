// An article as the device lists it, for tests that need rows without saving them: the placeholder a save
// shows (outbox/local-effects), at example.com, with the fields a test cares about laid over it.
import type { ArticleSummary } from '@lectern/shared-schema';
import { placeholderArticle } from '../outbox/local-effects';

/** A web article `id`, saved (and last changed) at `created_at`, 2026-03-01 10:00 UTC unless given. */
export function articleSummary(id: string, fields: Partial<ArticleSummary> = {}): ArticleSummary {
  const at = fields.created_at ?? '2026-03-01T10:00:00.000Z';
  const saved = placeholderArticle(
    { id, url: `https://example.com/${id}`, title: `Article ${id}`, article_type: 'web', tags: [] },
    at,
  );
  return { ...saved, ...fields };
}
