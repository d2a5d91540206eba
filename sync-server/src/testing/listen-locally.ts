// Test servers (fixture sites, stand-ins) listen on a free port of the loopback address only.
import type { Server } from 'node:http';
import { createServer } from 'node:net';

/** Starts `server` on a free loopback port and answers its origin, e.g. `http://127.0.0.1:41234`. */
export async function listenLocally(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/**
 * A free TCP port on the loopback address, for a process started next (a server process, a PostgreSQL
 * cluster): free when asked, so whoever starts on it retries if another took it since.
 */
export async function freeLocalPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}
