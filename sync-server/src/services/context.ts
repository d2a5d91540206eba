// What every service function is handed: the database, the configuration and the extraction pipeline.
import type { Config } from '../config';
import type { JobQueue } from '../jobs/job-queue';
import type { Db } from '../db/connection';
import type { FetchedArticle, OcrService, SafeFetchOptions } from '../extraction/index';
import type { WorkLimit } from './work-limits';

export interface Extraction {
  /** `owner`: the user the page is saved for (extraction workers take users in turn). */
  fetchArticle(url: string, options: SafeFetchOptions, owner?: string): Promise<FetchedArticle>;
  ocr: OcrService;
}

export interface ServiceContext {
  db: Db;
  config: Config;
  extraction: Extraction;
  /** Bounds on work in progress: saves (fetch and extract) and screenshot uploads (OCR). */
  limits: { saves: WorkLimit; uploads: WorkLimit; imports: WorkLimit };
  /** Background work persisted in SQLite (imports' rows and pages). */
  jobs: JobQueue;
}
