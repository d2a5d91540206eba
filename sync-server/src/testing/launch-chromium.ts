// Debian's Chromium for tests and benchmarks (CHROME_PATH overrides), headless with the flags this
// network-less machine needs: without them Chromium keeps trying to reach Google's services.
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Chromium with CHROMIUM_ARGS and `extraArgs` after them. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}
