// @vitest-environment happy-dom
// Choosing the file: the chosen or dropped file with what it looks like, an optional forced format, Start
// with that, the server's refusal shown in its words, and no Start while offline.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ImportError, type StartImportInput } from '../../data';
import { ImportFilePicker } from './ImportFilePicker';

const POCKET_CSV = 'title,url,time_added,tags,status\nA,https://example.com/a,1577836800,,unread\n';

function choose(file: File) {
  const input = screen.getByLabelText(/Choose your export file/) as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

describe('ImportFilePicker', () => {
  afterEach(cleanup);

  it('shows the chosen file and what it looks like, and starts with the format asked for', async () => {
    const onStart = vi.fn(async (_input: StartImportInput) => ({}));
    render(<ImportFilePicker online onStart={onStart} />);
    choose(new File([POCKET_CSV], 'part_000000.csv', { type: 'text/csv' }));
    await screen.findByText('Pocket export (CSV)');
    expect(screen.getByText('part_000000.csv')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'instapaper' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(onStart).toHaveBeenCalledTimes(1));
    expect(onStart.mock.calls[0]![0]).toMatchObject({ name: 'part_000000.csv', source: 'instapaper' });
  });

  it('takes a dropped file', async () => {
    render(<ImportFilePicker online onStart={async () => ({})} />);
    const zone = screen.getByText('Choose your export file').closest('label')!;
    const file = new File(['<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>'], 'bookmarks.html');
    fireEvent.drop(zone, { dataTransfer: { files: [file] } });
    await screen.findByText('Browser bookmarks (HTML)');
    expect(screen.getByText('bookmarks.html')).toBeTruthy();
  });

  it('shows the server’s refusal in its words and keeps the file', async () => {
    const refusal = 'Unknown format: export from Pocket (CSV or HTML), Instapaper (CSV) …';
    render(
      <ImportFilePicker
        online
        onStart={async () => {
          throw new ImportError(refusal, 400);
        }}
      />,
    );
    choose(new File(['hello\n'], 'notes.txt'));
    await screen.findByText('Unrecognised file');
    expect(screen.getByText(/doesn’t look like an export we know/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Start import' }));
    expect((await screen.findByRole('alert')).textContent).toBe(refusal);
    expect(screen.getByText('notes.txt')).toBeTruthy();
  });

  it('offers no Start while offline', async () => {
    render(<ImportFilePicker online={false} onStart={async () => ({})} />);
    choose(new File([POCKET_CSV], 'pocket.csv'));
    await screen.findByText('Pocket export (CSV)');
    expect((screen.getByRole('button', { name: 'Start import' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
