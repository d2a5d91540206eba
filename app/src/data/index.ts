// The data layer's public face: what screens import.
export { createLectern, type Lectern, type LecternOptions } from './lectern';
export { ApiError, NetworkError, type FetchLike, type TokenStorage } from './api/http-client';
export { GoogleSignInError, UnsyncedWritesError } from './auth/sign-in-errors';
export { SaveArticleError, type ScreenshotInput } from './repository/articles';
export type { LocalArticle, LocalArticleSummary, PendingSave } from './reads/article-reads';
export type { FailedWrite, SyncRunResult, SyncState } from './sync/sync-engine';
export type { Operation } from './outbox/operations';
export { browserConnectivity, manualConnectivity, type Connectivity } from './sync/connectivity';
export {
  ImportError,
  importErrorOf,
  importInProgress,
  importTitle,
  type StartImportInput,
} from './imports/imports-api';
export { previewImportFile, type ImportPreview } from './imports/preview-import-file';
