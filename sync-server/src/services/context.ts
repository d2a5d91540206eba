// What every service function is handed: the database, the configuration and the extraction pipeline.
import type { Config } from '../config';
import type { Db } from '../db/connection';
import type { FetchedArticle, OcrService, SafeFetchOptions } from '../extraction/index';

export interface Extraction {
  fetchArticle(url: string, options: SafeFetchOptions): Promise<FetchedArticle>;
  ocr: OcrService;
}

export interface ServiceContext {
  db: Db;
  config: Config;
  extraction: Extraction;
}
