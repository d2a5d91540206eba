// Test servers (fixture sites, stand-ins) listen on a free port of the loopback address only.
import type { Server } from 'node:http';

/** Starts `server` on a free loopback port and answers its origin, e.g. `http://127.0.0.1:41234`. */
export async function listenLocally(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}
