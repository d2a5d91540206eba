// How much of the library this device keeps offline: everything, or the newest N MB of images. A setting of
// the device, not of the account (a phone and a laptop want different things), kept in localStorage; and
// what the browser grants (navigator.storage).
import type { TokenStorage } from '../api/http-client';

export type OfflineBudget = { kind: 'everything' } | { kind: 'newest'; megabytes: number };

export const OFFLINE_BUDGET_KEY = 'lectern.offlineBudget';
const DEFAULT_BUDGET_MB = 500;
export const DEFAULT_OFFLINE_BUDGET: OfflineBudget = { kind: 'newest', megabytes: DEFAULT_BUDGET_MB };
export const MIN_BUDGET_MB = 10;
export const MAX_BUDGET_MB = 100_000;

const MB = 1024 * 1024;

export function readBudget(storage: TokenStorage): OfflineBudget {
  try {
    const value: unknown = JSON.parse(storage.getItem(OFFLINE_BUDGET_KEY) ?? 'null');
    if (value && typeof value === 'object' && 'kind' in value) {
      if (value.kind === 'everything') return { kind: 'everything' };
      if (value.kind === 'newest' && 'megabytes' in value && typeof value.megabytes === 'number')
        return { kind: 'newest', megabytes: clampMegabytes(value.megabytes) };
    }
  } catch {
    // A value written by hand or by another version: the default holds.
  }
  return DEFAULT_OFFLINE_BUDGET;
}

export function writeBudget(storage: TokenStorage, budget: OfflineBudget): OfflineBudget {
  const kept: OfflineBudget =
    budget.kind === 'everything' ? budget : { kind: 'newest', megabytes: clampMegabytes(budget.megabytes) };
  storage.setItem(OFFLINE_BUDGET_KEY, JSON.stringify(kept));
  return kept;
}

function clampMegabytes(value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_BUDGET_MB;
  return Math.min(MAX_BUDGET_MB, Math.max(MIN_BUDGET_MB, Math.round(value)));
}

/** The bytes images may take; Infinity for everything. */
export function budgetBytes(budget: OfflineBudget): number {
  return budget.kind === 'everything' ? Infinity : budget.megabytes * MB;
}

export interface BrowserStorage {
  /** What the origin uses and may use, as the browser says (null where it can't tell). */
  usage: number | null;
  quota: number | null;
  /** The browser promised not to evict this origin's data under storage pressure. */
  persisted: boolean;
}

export async function browserStorage(): Promise<BrowserStorage> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage?.estimate) return { usage: null, quota: null, persisted: false };
  const [estimate, persisted] = await Promise.all([
    storage.estimate().catch(() => ({}) as StorageEstimate),
    storage.persisted?.().catch(() => false) ?? Promise.resolve(false),
  ]);
  return { usage: estimate.usage ?? null, quota: estimate.quota ?? null, persisted };
}

/** Asks the browser to keep this origin's data under storage pressure. Answers whether it will. */
export async function requestPersistentStorage(): Promise<boolean> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage?.persist) return false;
  try {
    if (await storage.persisted?.()) return true;
    return await storage.persist();
  } catch {
    return false;
  }
}
