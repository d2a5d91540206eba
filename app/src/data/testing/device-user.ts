// The user a device remembers as signed in (its `user` meta row), for tests of the data layer without a
// server: what a sign-in would have stored.
import type { LecternDb } from '../db/lectern-db';

export async function rememberReader(db: LecternDb, id = 'u1'): Promise<void> {
  await db.setMeta('user', {
    id,
    email: `${id}@example.com`,
    username: 'reader',
    avatarUrl: null,
    created_at: '',
  });
}
