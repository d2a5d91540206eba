// /api/imports: upload another app's export and follow it. Online only: the server reads the file and
// writes its rows; the articles then reach the device through the change feed like any other.
import {
  IMPORT_MAX_FILE_BYTES,
  importSourceName,
  SERVER_ERRORS,
  type ImportListResponse,
  type ImportResponse,
  type ImportSource,
  type ImportView,
} from '@lectern/shared-schema';
import { ApiError, NetworkError, type HttpClient } from '../api/http-client';
import type { SyncEngine } from '../sync/sync-engine';

const OFFLINE =
  'You’re offline. Importing needs a connection to the server; try again once you’re back online.';
const TOO_LARGE = SERVER_ERRORS.importTooLarge;
const BUSY = 'An import is still being written to your library. Please wait for it to finish.';
const FAILED = 'The import could not be started. Please try again.';

/** Why an import could not start or be read, in words for the screen. */
export class ImportError extends Error {
  constructor(
    message: string,
    /** The HTTP status, 0 when the server could not be reached. */
    readonly status: number,
  ) {
    super(message);
    this.name = 'ImportError';
  }
}

/** The server's own text where it gave one (400 names the formats), else a sentence of ours. */
export function importErrorOf(error: unknown): ImportError {
  if (error instanceof ImportError) return error;
  if (error instanceof NetworkError) return new ImportError(OFFLINE, 0);
  if (error instanceof ApiError) {
    const fallback = error.status === 413 ? TOO_LARGE : error.status === 429 ? BUSY : FAILED;
    return new ImportError(error.serverMessage ?? fallback, error.status);
  }
  throw error;
}

/** "Pocket export, 8,412 items". */
export function importTitle(view: Pick<ImportView, 'source' | 'total'>): string {
  return `${importSourceName(view.source)}, ${view.total.toLocaleString('en-US')} ${view.total === 1 ? 'item' : 'items'}`;
}

/** Still being written or fetched: worth asking again. */
export function importInProgress(view: Pick<ImportView, 'status'>): boolean {
  return view.status === 'queued' || view.status === 'running';
}

export interface StartImportInput {
  file: Blob;
  /** The file's name, sent with it (the server may read the extension). */
  name: string;
  /** Forces the format instead of detecting it. */
  source?: ImportSource;
}

export function createImportsApi({ http, sync }: { http: HttpClient; sync: SyncEngine }) {
  // Always tried, never judged by the sync state first: a blip marks the server unreachable until the next
  // answer, and this call may be that answer.
  async function online<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw importErrorOf(error);
    }
  }

  return {
    /** POST /imports (202): the import as it starts; its rows arrive through the feed. */
    async start({ file, name, source }: StartImportInput): Promise<ImportView> {
      // The file is bigger than the server takes (413): said before uploading 50 MB for nothing.
      if (file.size > IMPORT_MAX_FILE_BYTES) throw new ImportError(TOO_LARGE, 413);
      const form = new FormData();
      if (source) form.append('source', source);
      form.append('file', file, name);
      const { import: started } = await online(() =>
        http.request<ImportResponse>('POST', '/imports', { form }),
      );
      sync.requestSync(0);
      return started;
    },

    /** GET /imports: newest first, without their failed rows. */
    list: () => online(async () => (await http.get<ImportListResponse>('/imports')).imports),

    /** GET /imports/{id}: with the failed rows once done. Asks for a sync, so the new rows show soon. */
    async get(id: string): Promise<ImportView> {
      const { import: view } = await online(() =>
        http.get<ImportResponse>(`/imports/${encodeURIComponent(id)}`),
      );
      sync.requestSync(0);
      return view;
    },
  };
}

export type ImportsApi = ReturnType<typeof createImportsApi>;
