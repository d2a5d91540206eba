// The data layer's public face: the only module of data/ that screens, components, hooks and the session
// import (a lint rule in eslint.config.js holds them to it), so what lies behind it can move freely.
// The data layer itself (Dexie, the sync engine, the offline library) is loaded on demand by loadLectern,
// in its own chunk: nothing here reaches it by value, so the first screen's JavaScript doesn't carry it.
export type { Lectern, LecternOptions } from './lectern';
export { loadLectern } from './load-lectern';
export { ApiError, NetworkError, type FetchLike, type TokenStorage } from './api/http-client';
export { GoogleSignInError, UnsyncedWritesError } from './auth/sign-in-errors';
export { GOOGLE_NONCE_KEY } from './auth/google-nonce-key';
export { SaveArticleError } from './repository/save-article-error';
export type { ScreenshotInput } from './repository/articles';
export type { LocalArticle, LocalArticleSummary, PendingSave } from './reads/article-reads';
export type { ArticlePage } from './reads/article-pages';
export { sortArticles, type ArticleOrder } from './reads/article-order';
export { listKeyOf } from './reads/list-key';
export { countedListTotal } from './reads/counted-list-total';
export type { FailedWrite, SyncRunResult, SyncState } from './sync/sync-engine';
export type { Operation } from './outbox/operations';
export { browserConnectivity, manualConnectivity, type Connectivity } from './sync/connectivity';
export { createObjectUrl, revokeObjectUrl } from './device/object-urls';
export { isKeptImageAddress } from './offline/image-addresses';
export type { AvailabilityInput, OfflineAvailability, OfflineUsage } from './offline/offline-library';
export {
  MAX_BUDGET_MB,
  MIN_BUDGET_MB,
  type BrowserStorage,
  type OfflineBudget,
} from './offline/storage-budget';
export {
  ImportError,
  importErrorOf,
  importInProgress,
  importTitle,
  type StartImportInput,
} from './imports/imports-api';
export { previewImportFile, type ImportPreview } from './imports/preview-import-file';
