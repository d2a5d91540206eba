// The figures × sizes table of `npm run bench`. Each benchmark script records its figures with
// recordFigure (one JSON line each, in the file bench/run.ts names in BENCH_RESULTS_FILE); run.ts prints them
// as one table, a row per figure and a column per library size, so a reader sees how each cost grows.
// A script run alone (npx tsx bench/server-bench.ts) just prints its PASS/MISS lines.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { report } from './server-process';

const DEFAULT_SIZES = [5_000, 20_000, 50_000];

export interface Figure {
  /** What is measured, the same words at every size (the table's row). */
  figure: string;
  /** Library size it was measured at (the table's column); 0 for a figure that has no size. */
  size: number;
  /** The measured value as shown, unit included. */
  value: string;
  /** The target as shown, e.g. "<= 15 ms". */
  target: string;
  ok: boolean;
  /** Device figures are for the app's side; the table groups them apart. */
  side: 'server' | 'device' | 'extraction';
}

/** The sizes asked for (`--sizes 5000,20000` becomes BENCH_SIZES), else the three default ones. */
export function benchSizes(): number[] {
  const asked = process.env.BENCH_SIZES?.split(',')
    .map((size) => Number(size.trim()))
    .filter((size) => Number.isInteger(size) && size > 0);
  return asked && asked.length > 0 ? [...new Set(asked)].sort((a, b) => a - b) : DEFAULT_SIZES;
}

let missed = false;

/** Prints the figure's PASS/MISS line and records it for the table. */
export function recordFigure(figure: Figure): void {
  const label = figure.size > 0 ? `${figure.figure} @ ${figure.size.toLocaleString('en')}` : figure.figure;
  report(label, figure.value, figure.target, figure.ok);
  if (!figure.ok) missed = true;
  const file = process.env.BENCH_RESULTS_FILE;
  if (file) appendFileSync(file, `${JSON.stringify(figure)}\n`);
}

/** Whether any figure this process recorded missed its target (the script then exits non-zero). */
export function anyMissed(): boolean {
  return missed;
}

export function readFigures(file: string): Figure[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Figure);
}

/** The table: one row per figure (in the order first recorded), one column per size, the target last. */
export function formatTable(figures: readonly Figure[]): string {
  const sizes = [...new Set(figures.map((figure) => figure.size))].sort((a, b) => a - b);
  const rows = [...new Set(figures.map((figure) => figure.figure))];
  const header = ['figure', ...sizes.map((size) => (size > 0 ? size.toLocaleString('en') : 'any')), 'target'];
  const body = rows.map((row) => {
    const cells = sizes.map((size) => {
      const found = figures.find((figure) => figure.figure === row && figure.size === size);
      return found ? `${found.value}${found.ok ? '' : ' MISS'}` : '-';
    });
    const target = figures.find((figure) => figure.figure === row)?.target ?? '';
    return [row, ...cells, target];
  });
  const widths = header.map((_, column) =>
    Math.max(...[header, ...body].map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((width, column) => (column === 0 ? `:${'-'.repeat(width + 1)}` : `${'-'.repeat(width + 1)}:`)).join('|')}|`,
    ...body.map(line),
  ].join('\n');
}
