// Reads the entries an import needs from a zip, within a budget: a zip bomb stops at the budget, not the disk.
import { unzipSync } from 'fflate';
import { ImportFormatError } from './imported-item';

export const ZIP_MAX_ENTRIES = 50_000;
/** Uncompressed bytes read from one zip at most. */
export const ZIP_MAX_TOTAL_BYTES = 256 * 1024 * 1024;

export interface ZipWanted {
  /** Entries that must be read: over the budget, the import fails. */
  required(name: string): boolean;
  /** Entries read while the budget lasts, then skipped (an Omnivore item's saved page: it can be fetched again). */
  optional?(name: string): boolean;
}

export function readZipEntries(bytes: Uint8Array, wanted: ZipWanted): Map<string, string> {
  let entries = 0;
  let budget = ZIP_MAX_TOTAL_BYTES;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter(file) {
        entries += 1;
        if (entries > ZIP_MAX_ENTRIES) {
          throw new ImportFormatError(
            `The zip holds more than ${ZIP_MAX_ENTRIES.toLocaleString('en-US')} files.`,
          );
        }
        if (file.name.endsWith('/')) return false;
        const required = wanted.required(file.name);
        if (!required && !wanted.optional?.(file.name)) return false;
        if (file.originalSize > budget) {
          if (required) throw new ImportFormatError('The zip unpacks to more than 256 MB.');
          return false;
        }
        budget -= file.originalSize;
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ImportFormatError) throw error;
    throw new ImportFormatError('The zip file is damaged and could not be read.');
  }
  const decoder = new TextDecoder('utf-8');
  const texts = new Map<string, string>();
  for (const [name, data] of Object.entries(files)) texts.set(name, decoder.decode(data));
  return texts;
}
