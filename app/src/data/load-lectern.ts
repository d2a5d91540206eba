// The data layer in a chunk of its own (Dexie is most of it): the app starts loading it at once, beside the
// first screen's JavaScript rather than inside it.
import type { Lectern, LecternOptions } from './lectern';

export async function loadLectern(options: LecternOptions = {}): Promise<Lectern> {
  const { createLectern } = await import('./lectern');
  return createLectern(options);
}
