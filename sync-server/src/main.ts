// `npm start`: the API and the built PWA on one port, SQLite in DATA_DIR (./data by default), or
// PostgreSQL when DATABASE_URL is set.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from './app';
import { loadConfig, type Config } from './config';
import { DatabaseStartError } from './db/open';

const builtApp = join(dirname(fileURLToPath(import.meta.url)), '../../app/dist');
let config: Config;
try {
  config = loadConfig(process.env, { appDir: existsSync(builtApp) ? builtApp : null });
} catch (error) {
  // A setting the server refuses (a short JWT_SECRET, TRUST_PROXY=true…): its reason, not a stack trace.
  console.error(`Lectern cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
// DATABASE_URL: PostgreSQL is reached, logged into and migrated before anything starts (db/open.ts); a
// server that can't use it stops with the reason, never falling back to SQLite.
let app: Awaited<ReturnType<typeof buildServer>>;
try {
  app = await buildServer(config);
} catch (error) {
  if (!(error instanceof DatabaseStartError)) throw error;
  console.error(`Lectern cannot start: ${error.message}`);
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}

await app.listen({ port: config.port, host: config.host });
console.log(`Lectern is running on ${config.publicUrl} (data in ${config.dataDir})`);
