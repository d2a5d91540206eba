// The real server as a process of its own (sync-server/src/main.ts, as `npm start` runs it): a second node
// whose memory is its own, so that a test of what nodes share can't pass through anything they share in
// one process (a module's state).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freeLocalPort } from '../../src/testing/listen-locally';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface ServerProcess {
  url: string;
  stop(): Promise<void>;
  /** As if the machine died: SIGKILL, no shutdown of any kind (connections dropped, jobs left in hand). */
  kill(): Promise<void>;
}

/** Starts the server with `env` on a free port and waits until GET /api/health answers (60 s at most). */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freeLocalPort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  };
  const stop = () => end('SIGTERM');
  const kill = () => end('SIGKILL');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server process exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, stop, kill };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server process did not answer at ${url} within 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
