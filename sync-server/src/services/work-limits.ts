// Bounds on the expensive work a request can start: fetching and extracting a page, reading a screenshot.
// Each user may have only a few in progress at once, and the server as a whole only so many, so one user
// (or many) can't queue unbounded work or hold many 15 MB uploads in memory. Over a bound the request is
// answered 429 at once, with Retry-After, before any of its work (or its upload) starts.
//
// Counted per node, in memory, on purpose: the work runs and the uploads sit in this process, so the bound
// that protects its memory and CPU is this process's count. With several nodes a user may have this many in
// progress on each; the work itself (articles, imports, jobs) lands in the shared database.
import { tooManyRequests } from './errors';

export interface WorkLimitOptions {
  perUser: number;
  total: number;
  /** What a user over their own bound is told. */
  userMessage: string;
  /** What anyone is told while the whole server is at its bound. */
  busyMessage: string;
  retryAfterSeconds: number;
}

export class WorkLimit {
  private readonly byUser = new Map<string, number>();
  private running = 0;

  constructor(private readonly options: WorkLimitOptions) {}

  /** How many runs are in progress on this node. */
  get inProgress(): number {
    return this.running;
  }

  /** How many of the user's runs are in progress. */
  inProgressFor(userId: string): number {
    return this.byUser.get(userId) ?? 0;
  }

  /** Runs `work` in one of the user's slots; 429 when they have none left or the server has none. */
  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const { perUser, total, userMessage, busyMessage, retryAfterSeconds } = this.options;
    const mine = this.byUser.get(userId) ?? 0;
    if (mine >= perUser) throw tooManyRequests(userMessage, retryAfterSeconds);
    if (this.running >= total) throw tooManyRequests(busyMessage, retryAfterSeconds);
    this.byUser.set(userId, mine + 1);
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      // Entries go with the last slot, so the map holds only users with work in progress.
      if (left > 0) this.byUser.set(userId, left);
      else this.byUser.delete(userId);
    }
  }
}
