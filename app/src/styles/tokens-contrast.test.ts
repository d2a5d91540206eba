import { describe, expect, it } from 'vitest';

// The test runs under Node, but the app project has no Node types, and Vitest hands CSS imports (?raw too)
// over empty; so read the file through the one Node API needed, declared here for this file only.
declare const process: {
  getBuiltinModule(id: 'node:fs'): { readFileSync(path: URL, encoding: 'utf8'): string };
};
const tokensCss = process
  .getBuiltinModule('node:fs')
  .readFileSync(new URL('./tokens.css', import.meta.url), 'utf8');

// WCAG 2.x contrast, computed from the custom properties in tokens.css so a palette change can't quietly
// drop below AA.
const tokens = new Map(
  [...tokensCss.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6});/gi)].map(([, name, hex]) => [
    name!,
    hex!.toLowerCase(),
  ]),
);

function color(name: string): string {
  const hex = tokens.get(name);
  if (!hex) throw new Error(`tokens.css has no --${name}`);
  return hex;
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

const TEXT_PAIRS: [foreground: string, background: string][] = [
  ['ink', 'paper'],
  ['ink', 'surface-sunken'],
  ['ink-muted', 'paper'],
  ['ink-muted', 'surface'],
  ['ink-muted', 'surface-sunken'],
  ['ink-subtle', 'paper'],
  ['ink-subtle', 'surface'],
  ['ink-subtle', 'surface-sunken'],
  ['accent', 'paper'],
  ['accent', 'surface'],
  ['accent', 'accent-soft'],
  ['accent-ink', 'accent-soft'],
  ['ink-inverse', 'accent'],
  ['ink-inverse', 'accent-hover'],
  ['ink-inverse', 'danger'],
  ['danger', 'surface'],
  ['danger', 'danger-soft'],
  ['success', 'surface'],
  ['success', 'success-soft'],
  ['warning', 'warning-soft'],
  ['info', 'info-soft'],
  ['ink-muted', 'accent-soft'],
];

describe('design tokens', () => {
  it.each(TEXT_PAIRS)('--color-%s on --color-%s reaches AA for body text (4.5:1)', (fg, bg) => {
    expect(contrast(color(`color-${fg}`), color(`color-${bg}`))).toBeGreaterThanOrEqual(4.5);
  });

  it('outlines form controls with at least 3:1 against their background (WCAG 1.4.11)', () => {
    expect(contrast(color('color-border-control'), color('color-surface'))).toBeGreaterThanOrEqual(3);
    expect(contrast(color('color-border-control'), color('color-paper'))).toBeGreaterThanOrEqual(3);
  });

  it('draws the focus ring at 3:1 or more against the page', () => {
    expect(contrast(color('color-accent'), color('color-paper'))).toBeGreaterThanOrEqual(3);
  });
});
