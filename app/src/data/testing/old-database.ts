// A device's database as an older version of the app left it: opened at `version` of SCHEMA_VERSIONS with
// that version's upgrades, for tests of the upgrades after it.
import Dexie from 'dexie';
import { IDBKeyRange, type IDBFactory } from 'fake-indexeddb';
import { SCHEMA_VERSIONS } from '../db/lectern-db';

export async function openOldDatabase(name: string, indexedDB: IDBFactory, version: number): Promise<Dexie> {
  const old = new Dexie(name, { indexedDB, IDBKeyRange });
  for (const { version: each, stores, upgrade } of SCHEMA_VERSIONS.filter((v) => v.version <= version)) {
    const declared = old.version(each).stores(stores);
    if (upgrade) declared.upgrade(upgrade);
  }
  await old.open();
  return old;
}
