// The analytics of spec section 9 from the device's data, computed as the server would.
import { computeAnalytics, type ReadingAnalytics } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import { articleRows } from './row-cache';
import { listTags } from './tag-reads';

export async function readingAnalytics(db: LecternDb, now = new Date()): Promise<ReadingAnalytics> {
  const [articles, { tags }] = await Promise.all([articleRows(db), listTags(db)]);
  return computeAnalytics([...articles.values()], tags, now);
}
