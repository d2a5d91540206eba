// An import upload takes its slot before its file is read, and a reader's file waits for their earlier
// import: a caller refused (429) never has its file read. On the server's own context over an in-memory
// SQLite built by the real migrations.
import { newId, SERVER_ERRORS } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { contextPerTest } from '../testing/service-context';
import { slowUpload } from '../testing/slow-upload';
import { badRequest } from './errors';
import { uploadImport, type ImportUpload } from './imports';
import { sql } from 'drizzle-orm';

const t = contextPerTest(['ann', 'bob']);

describe('uploadImport', () => {
  it('reads one export file per reader at a time', async () => {
    const first = slowUpload<ImportUpload>();
    const reading = uploadImport(t.ctx, 'ann', first.reader);
    const second = slowUpload<ImportUpload>();
    await expect(uploadImport(t.ctx, 'ann', second.reader)).rejects.toMatchObject({
      statusCode: 429,
      message: SERVER_ERRORS.importReading,
    });
    expect(second.read.count).toBe(0);
    first.fail(badRequest(SERVER_ERRORS.importFileMissing));
    await expect(reading).rejects.toMatchObject({ statusCode: 400 });
  });

  it('refuses a new file, unread, while an earlier import of the reader is still being written', async () => {
    const importId = newId();
    await t.ctx.db.run(sql`INSERT INTO imports (id, user_id, source, status, total, failed, created_at)
         VALUES (${importId}, 'ann', 'pocket', 'running', 1, 0, ${new Date().toISOString()})`);
    await t.ctx.db.run(
      sql`INSERT INTO import_rows (import_id, position, data) VALUES (${importId}, 0, '{}')`,
    );
    const upload = slowUpload<ImportUpload>();
    await expect(uploadImport(t.ctx, 'ann', upload.reader)).rejects.toMatchObject({
      statusCode: 429,
      message: SERVER_ERRORS.importRunning,
    });
    expect(upload.read.count).toBe(0);
    // Another reader's import is not in the way.
    const bobs = slowUpload<ImportUpload>();
    const reading = uploadImport(t.ctx, 'bob', bobs.reader);
    bobs.fail(badRequest(SERVER_ERRORS.importFileMissing));
    await expect(reading).rejects.toMatchObject({ statusCode: 400 });
    expect(bobs.read.count).toBe(1);
  });
});
