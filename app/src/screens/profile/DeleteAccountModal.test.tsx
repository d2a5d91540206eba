// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lectern/shared-schema';
import { DeleteAccountModal } from './DeleteAccountModal';

afterEach(cleanup);

function renderModal() {
  const calls = { confirmed: 0 };
  render(
    <DeleteAccountModal
      open
      onClose={() => undefined}
      onConfirm={async () => {
        calls.confirmed += 1;
      }}
    />,
  );
  return calls;
}

describe('DeleteAccountModal', () => {
  it('keeps the button disabled with the warning until exactly DELETE is typed', () => {
    const calls = renderModal();
    const button = screen.getByRole('button', { name: 'Delete my account' }) as HTMLButtonElement;
    const input = screen.getByLabelText('Type DELETE to confirm');
    expect(button.disabled).toBe(true);
    expect(screen.getByText(MESSAGES.deleteConfirmWarning)).toBeTruthy();
    for (const attempt of ['delete', 'DELETE ', 'DELET', 'Delete']) {
      fireEvent.change(input, { target: { value: attempt } });
      expect(button.disabled).toBe(true);
      expect(screen.getByText(MESSAGES.deleteConfirmWarning)).toBeTruthy();
    }
    fireEvent.click(button);
    expect(calls.confirmed).toBe(0);
    fireEvent.change(input, { target: { value: 'DELETE' } });
    expect(button.disabled).toBe(false);
    expect(screen.queryByText(MESSAGES.deleteConfirmWarning)).toBeNull();
    fireEvent.click(button);
    expect(calls.confirmed).toBe(1);
  });

  it('puts focus in the confirmation field', () => {
    renderModal();
    expect(document.activeElement).toBe(screen.getByLabelText('Type DELETE to confirm'));
  });
});
