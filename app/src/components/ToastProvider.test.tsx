// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS } from '@lectern/shared-schema';
import type { ToastApi, ToastType } from './toast-context';
import { MAX_VISIBLE_TOASTS, ToastProvider } from './ToastProvider';
import { useToast } from './use-toast';

function renderWithToasts(): ToastApi {
  let api: ToastApi | undefined;
  function Capture() {
    api = useToast();
    return null;
  }
  render(
    <ToastProvider>
      <Capture />
    </ToastProvider>,
  );
  if (!api) throw new Error('ToastProvider did not provide an API');
  return api;
}

describe('ToastProvider', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it.each<[ToastType, string]>([
    ['success', 'status'],
    ['error', 'alert'],
    ['info', 'status'],
    ['warning', 'status'],
  ])('shows a %s toast with role %s and its type spelled out for screen readers', (type, role) => {
    const { showToast } = renderWithToasts();
    act(() => {
      showToast(`a ${type} happened`, type);
    });
    const toast = screen.getByRole(role);
    expect(toast.className).toContain(`toast--${type}`);
    expect(toast.textContent).toContain(`a ${type} happened`);
    expect(toast.querySelector('.sr-only')?.textContent).toMatch(/^(Success|Error|Information|Warning): $/);
  });

  it('shows at most MAX_VISIBLE_TOASTS at once, the newest ones', () => {
    const { showToast } = renderWithToasts();
    act(() => {
      for (let n = 1; n <= MAX_VISIBLE_TOASTS + 2; n += 1) showToast(`toast ${n}`);
    });
    const shown = screen.getAllByRole('status').map((toast) => toast.textContent ?? '');
    expect(shown).toHaveLength(MAX_VISIBLE_TOASTS);
    expect(shown.at(-1)).toContain(`toast ${MAX_VISIBLE_TOASTS + 2}`);
    expect(shown.join(' ')).not.toContain('toast 1');
  });

  it('is an info toast when no type is given', () => {
    const { showToast } = renderWithToasts();
    act(() => {
      showToast('Synced');
    });
    expect(screen.getByRole('status').className).toContain('toast--info');
  });

  it('removes a toast exactly when TOAST_DURATION_MS has passed', () => {
    const { showToast } = renderWithToasts();
    act(() => {
      showToast('Failed to save article', 'error');
    });
    act(() => {
      vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    });
    expect(screen.queryByText('Failed to save article')).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Failed to save article')).toBeNull();
  });

  it('gives every toast its own lifetime and honours a custom duration', () => {
    const { showToast } = renderWithToasts();
    act(() => {
      showToast('first', 'info');
    });
    act(() => {
      vi.advanceTimersByTime(1000);
      showToast('longer', 'warning', 5000);
    });
    act(() => {
      vi.advanceTimersByTime(TOAST_DURATION_MS - 1000);
    });
    expect(screen.queryByText('first')).toBeNull();
    expect(screen.queryByText('longer')).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(5000 - (TOAST_DURATION_MS - 1000));
    });
    expect(screen.queryByText('longer')).toBeNull();
  });

  it('closes a toast at once from its dismiss button or dismissToast', () => {
    const { showToast, dismissToast } = renderWithToasts();
    let second = 0;
    act(() => {
      showToast('one', 'success');
      second = showToast('two', 'success');
    });
    fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss notification' })[0]!);
    expect(screen.queryByText('one')).toBeNull();
    act(() => dismissToast(second));
    expect(screen.queryByText('two')).toBeNull();
  });

  it('does not repeat a check mark the message already carries', () => {
    const { showToast } = renderWithToasts();
    act(() => {
      showToast('✓ Highlight added!', 'success');
      showToast('Highlight deleted', 'success');
    });
    const [withMark, plain] = screen.getAllByRole('status');
    expect(withMark?.querySelector('.toast__icon')).toBeNull();
    expect(plain?.querySelector('.toast__icon')).not.toBeNull();
  });

  it('keeps an empty live region in the page so later toasts get announced', () => {
    renderWithToasts();
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(region.getAttribute('aria-live')).toBe('polite');
  });
});

describe('useToast', () => {
  afterEach(cleanup);

  it('explains itself when used outside a ToastProvider', () => {
    function Orphan() {
      useToast();
      return null;
    }
    const silence = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Orphan />)).toThrow('useToast() needs a <ToastProvider> above it');
    silence.mockRestore();
  });
});
