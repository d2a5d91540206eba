// What every part of the repository is handed.
import type { HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import { recordWrites } from '../outbox/outbox';
import type { Operation } from '../outbox/operations';
import type { ArticleSearch } from '../search/article-search';
import type { HighlightSearch } from '../search/highlight-search';
import type { SyncEngine } from '../sync/sync-engine';

export interface RepositoryContext {
  db: LecternDb;
  http: HttpClient;
  sync: SyncEngine;
  articleSearch: ArticleSearch;
  highlightSearch: HighlightSearch;
}

/** Applies writes on the device at once and asks for a sync shortly after. */
export async function write(ctx: RepositoryContext, ...ops: Operation[]): Promise<void> {
  await recordWrites(ctx.db, ops);
  ctx.sync.requestSync();
}
