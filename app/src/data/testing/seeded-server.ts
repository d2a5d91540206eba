// A real sync-server over the benchmarks' realistic library (bench/support/bench-library.ts), seeded
// straight into its database for one account: what first-sync tests pull. The server and the library live
// in other TypeScript projects, so they are loaded at run time by path and described here by the little
// this side uses of them (as server-fixture.ts does).
import { loadFromRepo, type RunningServer, type ServerModule } from './server-fixture';

interface SeedModules {
  seed: { seedDatabase<T>(dataDir: string, seed: (db: unknown) => Promise<T>): Promise<T> };
  library: {
    benchLibrary(userId: string, seed: number): { ids: string[] };
    growLibrary(db: unknown, library: { ids: string[] }, count: number): Promise<void>;
  };
  users: { registerUser(db: unknown, body: object): Promise<{ id: string }> };
}

export interface SeededServer {
  server: RunningServer;
  /** The account's token, signed in once. */
  token: string;
}

/** A server whose account `email` holds `articles` articles of the realistic library (seed 16). */
export async function startSeededServer(
  account: { email: string; password: string; username: string },
  articles: number,
): Promise<SeededServer> {
  const [seed, library, users, serverModule] = await Promise.all([
    loadFromRepo<SeedModules['seed']>('bench/support/seed-library.ts'),
    loadFromRepo<SeedModules['library']>('bench/support/bench-library.ts'),
    loadFromRepo<SeedModules['users']>('sync-server/src/services/users.ts'),
    loadFromRepo<ServerModule>('sync-server/src/testing/start-test-server.ts'),
  ]);
  // Node's own modules, named at run time: this project is typed for the browser.
  const nodeModule = async <T>(name: string) => (await import(/* @vite-ignore */ `node:${name}`)) as T;
  const { mkdtempSync } = await nodeModule<{ mkdtempSync(prefix: string): string }>('fs');
  const { tmpdir } = await nodeModule<{ tmpdir(): string }>('os');
  const dataDir = mkdtempSync(`${tmpdir()}/lectern-seeded-`);
  await seed.seedDatabase(dataDir, async (db) => {
    const user = await users.registerUser(db, account);
    await library.growLibrary(db, library.benchLibrary(user.id, 16), articles);
  });
  const server = await serverModule.startTestServer({ dataDir });
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  const { token } = (await login.json()) as { token: string };
  return { server, token };
}
