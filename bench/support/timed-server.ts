// The real server (as sync-server/src/main.ts starts it) that writes how long its own start took to
// STARTUP_FILE: from opening the database to listening, with start-up work and the job queue's start included.
// Loading the code is left out: it costs the same with any library, and the figure is about the library.
import { writeFileSync } from 'node:fs';
import { buildServer } from '../../sync-server/src/app';
import { loadConfig } from '../../sync-server/src/config';

const config = loadConfig(process.env, { appDir: null });
const started = performance.now();
const app = await buildServer(config);
await app.listen({ port: config.port, host: config.host });
writeFileSync(process.env.STARTUP_FILE ?? '/dev/null', String(performance.now() - started));
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
