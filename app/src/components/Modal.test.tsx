// @vitest-environment happy-dom
import { useRef, useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Modal } from './Modal';

function ConfirmDelete({ onClose = () => {} }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  const close = () => {
    onClose();
    setOpen(false);
  };
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Delete (2)
      </button>
      <Modal
        open={open}
        onClose={close}
        title="Delete 2 articles?"
        footer={
          <>
            <button type="button" onClick={close}>
              Cancel
            </button>
            <button type="button">Delete</button>
          </>
        }
      >
        <label>
          Reason
          <input name="reason" />
        </label>
      </Modal>
    </>
  );
}

function focused(): string {
  const active = document.activeElement;
  return active?.getAttribute('aria-label') ?? active?.getAttribute('name') ?? active?.textContent ?? '';
}

describe('Modal', () => {
  afterEach(cleanup);

  it('renders nothing while closed', () => {
    render(<ConfirmDelete />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens as a labelled modal dialog with focus on its first field', () => {
    render(<ConfirmDelete />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete (2)' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 2 articles?' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(focused()).toBe('reason');
  });

  it('keeps Tab and Shift+Tab inside the dialog', () => {
    render(<ConfirmDelete />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete (2)' }));
    const last = screen.getByRole('button', { name: 'Delete' });
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(focused()).toBe('Close');

    fireEvent.keyDown(document.activeElement!, { key: 'Tab', shiftKey: true });
    expect(focused()).toBe('Delete');
  });

  it('lets Tab move normally between elements in the middle of the dialog', () => {
    render(<ConfirmDelete />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete (2)' }));
    const reason = screen.getByRole('textbox');
    const event = fireEvent.keyDown(reason, { key: 'Tab' });
    // Not prevented: the browser's own Tab order takes over inside the dialog.
    expect(event).toBe(true);
  });

  it('closes on Esc and gives focus back to the button that opened it', () => {
    const onClose = vi.fn();
    render(<ConfirmDelete onClose={onClose} />);
    const opener = screen.getByRole('button', { name: 'Delete (2)' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.keyDown(screen.getByRole('textbox'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('returns focus after closing from a button inside, and closes on a backdrop click', () => {
    render(<ConfirmDelete />);
    const opener = screen.getByRole('button', { name: 'Delete (2)' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(opener);

    fireEvent.click(opener);
    fireEvent.mouseDown(document.querySelector('.modal-backdrop')!);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('ignores a mouse-down inside the dialog and honours closeOnBackdrop={false}', () => {
    const onClose = vi.fn();
    render(
      <Modal open onClose={onClose} title="Delete account" closeOnBackdrop={false}>
        <p>Type DELETE to confirm</p>
      </Modal>,
    );
    fireEvent.mouseDown(screen.getByText('Type DELETE to confirm'));
    fireEvent.mouseDown(document.querySelector('.modal-backdrop')!);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('focuses initialFocusRef when given', () => {
    function WithInitialFocus() {
      const confirmRef = useRef<HTMLButtonElement>(null);
      return (
        <Modal
          open
          onClose={() => {}}
          title="Discard changes?"
          initialFocusRef={confirmRef}
          footer={
            <button type="button" ref={confirmRef}>
              Discard
            </button>
          }
        >
          <input name="note" />
        </Modal>
      );
    }
    render(<WithInitialFocus />);
    expect(focused()).toBe('Discard');
  });

  it('locks page scrolling while open and restores it after', () => {
    const { rerender } = render(<Modal open onClose={() => {}} title="Shortcuts" />);
    expect(document.body.style.overflow).toBe('hidden');
    rerender(<Modal open={false} onClose={() => {}} title="Shortcuts" />);
    expect(document.body.style.overflow).toBe('');
  });
});
