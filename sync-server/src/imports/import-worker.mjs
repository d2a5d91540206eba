// Entry point of the import worker thread. Plain JavaScript so that any Node can load it: it registers tsx
// itself, because a worker started from vitest or plain node inherits no TypeScript loader.
import { register } from 'tsx/esm/api';

register();
const { prepareImport } = await import('./prepare-import.ts');

/** @param {{ bytes: Uint8Array; source?: string }} task */
export default function prepare({ bytes, source }) {
  return prepareImport(bytes, source);
}
