// Six long reads of 300,000 characters (`long0`..`long5`, each with "Chapter{n}" and "prose"), rows and
// bodies written by one sync page: what a search index's catch-up takes in slices.
import type { LecternDb } from '../db/lectern-db';
import { putArticles } from '../db/local-store';
import { articleSummary } from './article-summary';

export async function writeLongReads(db: LecternDb): Promise<void> {
  const long = (n: number) => `<h2>Chapter${n}</h2>` + '<p>Some prose of a long read.</p>'.repeat(10_000);
  await putArticles(
    db,
    Array.from({ length: 6 }, (_, n) => ({
      ...articleSummary(`long${n}`, { title: `Long read ${n}` }),
      content: long(n),
    })),
  );
}
