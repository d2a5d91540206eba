// What every service function is handed: the database, the configuration and the extraction pipeline.
import type { Config } from '../config';
import type { Db } from '../db/connection';
import type { ExtractedArticle, OcrService, SafeFetchOptions } from '../extraction/index';

export interface Extraction {
  fetchPage(url: string, options: SafeFetchOptions): Promise<{ url: string; html: string }>;
  extractArticle(html: string, url: string): Promise<ExtractedArticle>;
  ocr: OcrService;
}

export interface ServiceContext {
  db: Db;
  config: Config;
  extraction: Extraction;
}
