// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { shortcutOf } from './dashboard-shortcuts';

function press(key: string, target: EventTarget | null = document.body, modifiers = {}) {
  return shortcutOf({ key, ctrlKey: false, metaKey: false, altKey: false, target, ...modifiers });
}

describe('shortcutOf', () => {
  it('maps S, /, Esc and ? to their actions', () => {
    expect(press('s')).toBe('focusSave');
    expect(press('S')).toBe('focusSave');
    expect(press('/')).toBe('focusSearch');
    expect(press('Escape')).toBe('close');
    expect(press('?')).toBe('showShortcuts');
    expect(press('x')).toBeNull();
  });

  it('leaves typing alone, except Esc', () => {
    const field = document.createElement('input');
    expect(press('s', field)).toBeNull();
    expect(press('/', document.createElement('textarea'))).toBeNull();
    expect(press('Escape', field)).toBe('close');
    const checkbox = document.createElement('input');
    checkbox.type = 'checkbox';
    expect(press('s', checkbox)).toBe('focusSave');
  });

  it('leaves the browser its own shortcuts', () => {
    expect(press('s', document.body, { ctrlKey: true })).toBeNull();
    expect(press('/', document.body, { metaKey: true })).toBeNull();
  });
});
