// The rule every create with a client id follows (DESIGN.md section 2), in one place: an id seen before
// answers what that id is now, so replaying a create after a lost answer never makes a second entity.
import { SERVER_ERRORS, type SyncEntity } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import { isTombstoned } from './change-log';
import { conflict, notFound } from './errors';

/**
 * The caller's existing entity for `id`; undefined when the id is new. Someone else's id is 409, and a
 * deleted id is 404: a replayed create never brings a deleted entity back.
 */
export async function replayedCreate<Row extends { user_id: string }>(
  db: Queryable,
  userId: string,
  entity: SyncEntity,
  id: string | undefined,
  find: (id: string) => Promise<Row | undefined>,
  notFoundMessage: string,
): Promise<Row | undefined> {
  if (!id) return undefined;
  const existing = await find(id);
  if (existing) {
    if (existing.user_id !== userId) throw conflict(SERVER_ERRORS.idTaken);
    return existing;
  }
  if (await isTombstoned(db, entity, id)) throw notFound(notFoundMessage);
  return undefined;
}
