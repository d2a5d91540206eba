// Chromium driven over its DevTools pipe by the few commands a benchmark needs, without Playwright, for
// figures that move many megabytes over the network. Playwright turns on DevTools' Network domain in every
// page, and that domain keeps a copy of each answer and decodes it as text once it has arrived: about
// 20 ms of the page's main thread for each megabyte-page of the change feed, and 0.3 s of a new device's
// first list of 10,000 cards (measured by alternating runs with and without it). No reader's browser pays
// that, so the new device is measured without it. Only the domains asked for are on: Page (navigation and
// the probes), Runtime's evaluation, and Profiler or Tracing when a run asks for them.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CHROMIUM_ARGS } from '../../sync-server/src/testing/launch-chromium';

type Params = Record<string, unknown>;
type Answer = Record<string, unknown>;
type Listener = (params: Answer, sessionId: string | undefined) => void;

/** One pipe to the browser: commands by id, events to their listeners. Messages end with a NUL byte. */
class Connection {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(a: Answer): void; reject(e: Error): void }>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private buffered = '';
  private closedWith: Error | null = null;

  constructor(
    private readonly input: Writable,
    output: Readable,
  ) {
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      this.buffered += chunk;
      for (let end = this.buffered.indexOf('\0'); end !== -1; end = this.buffered.indexOf('\0')) {
        const message = JSON.parse(this.buffered.slice(0, end)) as {
          id?: number;
          method?: string;
          params?: Answer;
          result?: Answer;
          error?: { message: string };
          sessionId?: string;
        };
        this.buffered = this.buffered.slice(end + 1);
        if (message.id !== undefined) {
          const call = this.waiting.get(message.id);
          this.waiting.delete(message.id);
          if (message.error) call?.reject(new Error(message.error.message));
          else call?.resolve(message.result ?? {});
        } else if (message.method) {
          for (const listener of this.listeners.get(message.method) ?? [])
            listener(message.params ?? {}, message.sessionId);
        }
      }
    });
    const closed = (error: Error) => {
      this.closedWith ??= error;
      for (const call of this.waiting.values()) call.reject(this.closedWith);
      this.waiting.clear();
    };
    output.on('close', () => closed(new Error('Chromium closed its DevTools pipe')));
    // Writing to a browser that is gone (or never started) fails the calls waiting, not the process.
    input.on('error', closed);
  }

  send(method: string, params: Params = {}, sessionId?: string): Promise<Answer> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    this.nextId += 1;
    const id = this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  on(method: string, listener: Listener): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }
}

/** A page of the bare browser: what the new device's benchmark does with it. */
export interface BarePage {
  /** Runs `fn(arg)` in the page and answers its result (awaited when it is a promise). */
  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T>;
  /** Opens `path` (from the base address) and waits for its load event. */
  goto(path: string): Promise<void>;
  /** Reloads the page and waits for its load event. */
  reload(): Promise<void>;
  /** Types `text` into the form field labelled `label`, as a reader's keyboard would. */
  fill(label: string, text: string): Promise<void>;
  /** Clicks the button named `name` inside the first element `within` selects, with the mouse, at its centre. */
  clickButton(name: string, within?: string): Promise<void>;
  waitForTimeout(ms: number): Promise<void>;
  /** A DevTools command in this page's session (Profiler, HeapProfiler…). */
  send(method: string, params?: Params): Promise<Answer>;
  /** Prints the page's console messages (turns Runtime's events on: a cost of its own). */
  printConsole(): Promise<void>;
  /**
   * The JS heap in use now (bytes, as Runtime.getHeapUsage counts it) of the page and of each worker it
   * started that is still running: workers have heaps of their own, which performance.memory leaves out.
   */
  heapsInUse(): Promise<{ page: number; workers: number }>;
}

export interface BareBrowser {
  newPage(options: {
    baseURL: string;
    viewport: { width: number; height: number };
    initScript: string;
    /**
     * `memory`: a context of its own whose storage (IndexedDB included) stays in memory, as Playwright's
     * are; `disk`: the browser's profile on disk, as a reader's browser keeps it.
     */
    storage: 'memory' | 'disk';
  }): Promise<BarePage>;
  /** A Chrome trace of the categories given, written to `path` when stopTracing is called. */
  startTracing(path: string, categories: readonly string[]): Promise<void>;
  stopTracing(): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Chromium (CHROME_PATH, else Debian's), headless, with the test's flags and a profile of its own. */
export async function launchBareChromium(): Promise<BareBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'lectern-bare-chromium-'));
  const child: ChildProcess = spawn(
    process.env.CHROME_PATH ?? '/usr/bin/chromium',
    [
      ...CHROMIUM_ARGS,
      '--headless',
      '--remote-debugging-pipe',
      `--user-data-dir=${profile}`,
      '--hide-scrollbars',
      '--mute-audio',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const connection = new Connection(child.stdio[3] as Writable, child.stdio[4] as Readable);
  // A browser that can't start (no Chromium at the path) is an error here, not an unhandled event.
  try {
    await Promise.race([
      connection.send('Browser.getVersion'),
      new Promise((_, reject) => child.once('error', reject)),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  let trace: { path: string; events: unknown[]; done: Promise<void> } | null = null;

  return {
    async newPage({ baseURL, viewport, initScript, storage }) {
      // In memory, as Playwright's contexts: a browser context of its own, its storage never written to disk.
      const context =
        storage === 'memory'
          ? ((await connection.send('Target.createBrowserContext')) as { browserContextId: string })
          : {};
      const { targetId } = (await connection.send('Target.createTarget', {
        url: 'about:blank',
        ...context,
      })) as {
        targetId: string;
      };
      const { sessionId } = (await connection.send('Target.attachToTarget', { targetId, flatten: true })) as {
        sessionId: string;
      };
      const send = (method: string, params: Params = {}) => connection.send(method, params, sessionId);
      const loaded = () =>
        new Promise<void>((resolve) => {
          const off = connection.on('Page.loadEventFired', (_, from) => {
            if (from !== sessionId) return;
            off();
            resolve();
          });
        });
      // The page's workers, attached as they start (not paused), so their heaps can be read.
      const workers = new Set<string>();
      connection.on('Target.attachedToTarget', (params, from) => {
        const { sessionId: worker, targetInfo } = params as {
          sessionId: string;
          targetInfo: { type: string };
        };
        if (from === sessionId && targetInfo.type === 'worker') workers.add(worker);
      });
      connection.on('Target.detachedFromTarget', (params) => {
        workers.delete((params as { sessionId: string }).sessionId);
      });
      // A worker that ends between the listing and the asking answers nothing, or never: 0 after a second.
      const heapOf = (session: string | undefined) =>
        Promise.race([
          connection
            .send('Runtime.getHeapUsage', {}, session)
            .then((answer) => (answer as { usedSize: number }).usedSize)
            .catch(() => 0),
          sleep(1000).then(() => 0),
        ]);
      await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
      await send('Page.enable');
      await send('Page.addScriptToEvaluateOnNewDocument', { source: initScript });
      await send('Emulation.setDeviceMetricsOverride', {
        ...viewport,
        deviceScaleFactor: 1,
        mobile: false,
      });
      const evaluateExpression = async <T>(expression: string): Promise<T> => {
        const answer = (await send('Runtime.evaluate', {
          expression,
          awaitPromise: true,
          returnByValue: true,
        })) as { result: { value: T }; exceptionDetails?: { exception?: { description?: string } } };
        if (answer.exceptionDetails)
          throw new Error(answer.exceptionDetails.exception?.description ?? 'the page threw');
        return answer.result.value;
      };
      // tsx names the bench's inner functions with a helper of its own (__name), which the page lacks.
      const evaluate = <T, A>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T> =>
        evaluateExpression(
          `((__name) => (${fn.toString()})(${arg === undefined ? '' : JSON.stringify(arg)}))((f) => f)`,
        );
      /** The centre of the element `find(arg)` answers in the page, once there is one (within 10 s). */
      const centreOf = async <A>(find: (arg: A) => Element | null | undefined, arg: A) => {
        const deadline = Date.now() + 10_000;
        for (;;) {
          const box = await evaluateExpression<{ x: number; y: number } | null>(`(() => {
            const element = (${find.toString()})(${JSON.stringify(arg)});
            if (!element) return null;
            const rect = element.getBoundingClientRect();
            return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
          })()`);
          if (box) return box;
          if (Date.now() > deadline) throw new Error(`nothing in the page for ${JSON.stringify(arg)}`);
          await sleep(100);
        }
      };
      const click = async ({ x, y }: { x: number; y: number }) => {
        for (const type of ['mousePressed', 'mouseReleased'])
          await send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
      };
      return {
        evaluate,
        send,
        async goto(path) {
          const load = loaded();
          await send('Page.navigate', { url: new URL(path, baseURL).href });
          await load;
        },
        async reload() {
          const load = loaded();
          await send('Page.reload');
          await load;
        },
        async fill(label, text) {
          await click(
            await centreOf(
              (name) =>
                [...document.querySelectorAll('label')].find((l) => l.textContent?.trim() === name)?.control,
              label,
            ),
          );
          await send('Input.insertText', { text });
        },
        async heapsInUse() {
          const [page, ...each] = await Promise.all([sessionId, ...workers].map(heapOf));
          return { page: page ?? 0, workers: each.reduce((sum, used) => sum + used, 0) };
        },
        async clickButton(name, within = 'body') {
          await click(
            await centreOf(
              ([scope, value]: [string, string]) =>
                [...(document.querySelector(scope)?.querySelectorAll('button') ?? [])].find(
                  (b) => b.textContent?.trim() === value,
                ),
              [within, name] as [string, string],
            ),
          );
        },
        waitForTimeout: sleep,
        async printConsole() {
          connection.on('Runtime.consoleAPICalled', (params, from) => {
            if (from !== sessionId) return;
            const args = params.args as { value?: unknown; description?: string }[];
            console.log('page:', args.map((a) => a.value ?? a.description).join(' '));
          });
          await send('Runtime.enable');
        },
      };
    },
    async startTracing(path, categories) {
      const events: unknown[] = [];
      const offData = connection.on('Tracing.dataCollected', (params) => {
        events.push(...(params.value as unknown[]));
      });
      const done = new Promise<void>((resolve) => {
        const off = connection.on('Tracing.tracingComplete', () => {
          off();
          offData();
          resolve();
        });
      });
      trace = { path, events, done };
      await connection.send('Tracing.start', {
        transferMode: 'ReportEvents',
        traceConfig: { includedCategories: categories },
      });
    },
    async stopTracing() {
      if (!trace) return;
      const { path, events, done } = trace;
      trace = null;
      await connection.send('Tracing.end');
      await done;
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, JSON.stringify({ traceEvents: events }));
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await connection.send('Browser.close').catch(() => undefined);
      await Promise.race([exited, sleep(5_000)]);
      child.kill('SIGKILL');
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}
