// A page the browser keeps in its back/forward cache sleeps while another page of the app writes (the
// reader marks an article read): nothing it showed has seen those writes when Back wakes it. On such a
// `pageshow` every live query reads again and the device syncs.
import { RangeSet, type Dexie, type ObservabilitySet } from 'dexie';

/** Every table and index of the database, as a change set that overlaps every query. */
export function everythingChanged(db: Dexie): ObservabilitySet {
  const parts: ObservabilitySet = {};
  for (const table of db.tables) {
    const base = `idb://${db.name}/${table.name}/`;
    parts[base] = new RangeSet(-Infinity, [[[]]]);
    parts[`${base}:dels`] = new RangeSet(-Infinity, [[[]]]);
    for (const index of table.schema.indexes) {
      if (index.name) parts[`${base}${index.name}`] = new RangeSet(-Infinity, [[[]]]);
    }
  }
  return parts;
}

/**
 * Re-runs every live query of this page on the database as it is now. Goes through Dexie's own window
 * event (what it listens to for other tabs' writes), because that path also drops the answers Dexie
 * cached for those queries; firing `Dexie.on.storagemutated` alone would re-run them against that cache.
 */
export function rereadEverything(db: Dexie): void {
  if (typeof dispatchEvent !== 'function' || typeof CustomEvent !== 'function') return;
  dispatchEvent(new CustomEvent('x-storagemutated-1', { detail: everythingChanged(db) }));
}

/** Calls `onRestore` whenever the page is shown again from the back/forward cache; answers the unsubscribe. */
export function onRestoredFromCache(onRestore: () => void): () => void {
  if (typeof addEventListener !== 'function') return () => undefined;
  const listener = (event: Event) => {
    if ((event as PageTransitionEvent).persisted) onRestore();
  };
  addEventListener('pageshow', listener);
  return () => removeEventListener('pageshow', listener);
}
