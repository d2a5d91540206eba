// The types of measure-initial-js.mjs, for the TypeScript that imports it (the e2e test and the dashboard bench).

export const INITIAL_JS_BUDGET_KB: number;

export interface InitialScript {
  /** The address index.html names it by, e.g. /assets/index-….js. */
  file: string;
  bytes: number;
  gzipBytes: number;
}

/** The scripts named by a built index.html, in their order there: the entry script, then its modulepreloads. */
export function initialScripts(indexHtml: string): string[];

/** Gzipped size in bytes of each initial script of the build in `distDir`, and their sum. */
export function measureInitialJs(distDir: string): { files: InitialScript[]; gzipBytes: number };
