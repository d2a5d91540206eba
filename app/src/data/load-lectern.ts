// The data layer in a chunk of its own (Dexie is most of it): the app starts loading it at once, beside the
// first screen's JavaScript rather than inside it.
import type { Lectern, LecternOptions } from './lectern';

export async function loadLectern(options: LecternOptions = {}): Promise<Lectern> {
  const { createLectern } = await import('./lectern');
  const lectern = createLectern(options);
  // Opened now, while the session's check is on the network, rather than by the first read after it: the
  // dashboard's first cards wait for both. A failure is met again, and reported, by that first read.
  lectern.db.open().catch(() => undefined);
  return lectern;
}
