// One transaction at a time, in the order they asked: SQLite has one writer, and better-sqlite3 runs a
// transaction on its one connection, so a second BEGIN while one is open would fail, or worse, its writes
// would land in the other's transaction. Each caller waits for the ones before it.

/** A first-come, first-served lock: `acquire` answers the function that lets the next one in. */
export class TransactionQueue {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const turn = this.tail.then(() => release);
    this.tail = this.tail.then(() => released);
    return turn;
  }

  /** Runs `work` when its turn comes, and lets the next one in when it ends, however it ends. */
  async run<T>(work: () => Promise<T> | T): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}
