// @vitest-environment happy-dom
// Choosing the file: the chosen or dropped file read before Start with the server's own reader (what it is
// and how many items it holds, or why it can't be imported, with Start disabled), an optional forced
// format, Start with that, the server's refusal shown in its words, and no Start while offline.
import { SERVER_ERRORS, importSourceName } from '@lectern/shared-schema';
import { UNKNOWN_IMPORT_FORMAT } from '@lectern/shared-schema/import-files';
import {
  EXPORT_FILES,
  INSTAPAPER_CSV,
  NETSCAPE_BOOKMARKS,
  POCKET_CSV_WITH_BAD_ROWS,
} from '@lectern/shared-schema/import-files/testing';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ImportError, type StartImportInput } from '../../data';
import { InPageImportWorker } from '../../data/testing/in-page-import-worker';
import { ImportFilePicker } from './ImportFilePicker';

const POCKET_ROW = 'A,https://example.com/a,1577836800,,unread\n';
const POCKET_CSV = `title,url,time_added,tags,status\n${POCKET_ROW}`;

const fileOf = (content: string | Uint8Array, name: string) => new File([content as BlobPart], name);

function choose(file: File) {
  const input = screen.getByLabelText(/Choose (your export|another) file/) as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

const startButton = () => screen.getByRole('button', { name: 'Start import' }) as HTMLButtonElement;

beforeAll(() => {
  vi.stubGlobal('Worker', InPageImportWorker);
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe('ImportFilePicker', () => {
  afterEach(cleanup);

  it('shows "Pocket export, N items" for a Pocket CSV before Start, and starts with that format', async () => {
    const onStart = vi.fn(async (_input: StartImportInput) => ({}));
    render(<ImportFilePicker online onStart={onStart} />);
    choose(fileOf(POCKET_CSV_WITH_BAD_ROWS.bytes, 'part_000000.csv'));
    // Read first: Start waits for it.
    expect(screen.getByText('Reading file…')).toBeTruthy();
    expect(startButton().disabled).toBe(true);

    // Every row the server will count: the two without a usable URL too.
    const detected = await screen.findByText('Pocket export, 3 items');
    expect(detected.textContent).toBe('Pocket export, 3 items');
    expect(screen.queryByText('Reading file…')).toBeNull();
    expect(screen.getByText('part_000000.csv')).toBeTruthy();
    expect(startButton().disabled).toBe(false);

    fireEvent.click(startButton());
    await waitFor(() => expect(onStart).toHaveBeenCalledTimes(1));
    // The format the reader saw goes with the file.
    expect(onStart.mock.calls[0]![0]).toMatchObject({ name: 'part_000000.csv', source: 'pocket' });
  });

  it('counts with thousands separators, and says "1 item" for one', async () => {
    render(<ImportFilePicker online onStart={async () => ({})} />);
    choose(fileOf(POCKET_CSV, 'pocket.csv'));
    await screen.findByText('Pocket export, 1 item');

    choose(fileOf(`title,url,time_added,tags,status\n${POCKET_ROW.repeat(8412)}`, 'pocket.csv'));
    await screen.findByText('Pocket export, 8,412 items');
  });

  it.each(EXPORT_FILES.map((file) => [file.name, file] as const))(
    'names the format of %s and counts its items',
    async (_name, file) => {
      render(<ImportFilePicker online onStart={async () => ({})} />);
      choose(fileOf(file.bytes, file.name));
      await screen.findByText(
        `${importSourceName(file.source)}, ${file.total} ${file.total === 1 ? 'item' : 'items'}`,
      );
      expect(startButton().disabled).toBe(false);
    },
  );

  it('shows the server’s words for a file that is no export, with Start disabled', async () => {
    const onStart = vi.fn(async () => ({}));
    render(<ImportFilePicker online onStart={onStart} />);
    choose(fileOf('hello\n', 'notes.txt'));
    expect((await screen.findByRole('alert')).textContent).toBe(UNKNOWN_IMPORT_FORMAT);
    expect(startButton().disabled).toBe(true);
    fireEvent.click(startButton());
    expect(onStart).not.toHaveBeenCalled();

    // Another file replaces the refusal.
    choose(fileOf(POCKET_CSV, 'pocket.csv'));
    await screen.findByText('Pocket export, 1 item');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(startButton().disabled).toBe(false);
  });

  it('refuses a file over 50 MB before reading or uploading it', async () => {
    const onStart = vi.fn(async () => ({}));
    render(<ImportFilePicker online onStart={onStart} />);
    const big = fileOf(POCKET_CSV, 'pocket.csv');
    Object.defineProperty(big, 'size', { value: 50 * 1024 * 1024 + 1 });
    choose(big);
    expect((await screen.findByRole('alert')).textContent).toBe(SERVER_ERRORS.importTooLarge);
    expect(startButton().disabled).toBe(true);
  });

  it('reads the file again as the format asked for, and starts with it', async () => {
    const onStart = vi.fn(async (_input: StartImportInput) => ({}));
    render(<ImportFilePicker online onStart={onStart} />);
    choose(fileOf(INSTAPAPER_CSV.bytes, 'export.csv'));
    await screen.findByText('Instapaper export, 4 items');

    // A format the file is not: the server's refusal, before Start.
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'pocket' } });
    expect((await screen.findByRole('alert')).textContent).toBe(
      `This file is not in the format chosen (Pocket export). ${UNKNOWN_IMPORT_FORMAT}`,
    );
    expect(startButton().disabled).toBe(true);

    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'instapaper' } });
    await screen.findByText('Instapaper export, 4 items');
    fireEvent.click(startButton());
    await waitFor(() => expect(onStart).toHaveBeenCalledTimes(1));
    expect(onStart.mock.calls[0]![0]).toMatchObject({ name: 'export.csv', source: 'instapaper' });
  });

  it('takes a dropped file', async () => {
    render(<ImportFilePicker online onStart={async () => ({})} />);
    const zone = screen.getByText('Choose your export file').closest('label')!;
    fireEvent.drop(zone, { dataTransfer: { files: [fileOf(NETSCAPE_BOOKMARKS.bytes, 'bookmarks.html')] } });
    await screen.findByText('Browser bookmarks, 4 items');
    expect(screen.getByText('bookmarks.html')).toBeTruthy();
  });

  it('shows the server’s refusal in its words and keeps the file', async () => {
    const refusal = 'An import is still being written to your library. Please wait for it to finish.';
    render(
      <ImportFilePicker
        online
        onStart={async () => {
          throw new ImportError(refusal, 429);
        }}
      />,
    );
    choose(fileOf(POCKET_CSV, 'pocket.csv'));
    await screen.findByText('Pocket export, 1 item');
    fireEvent.click(startButton());
    expect((await screen.findByRole('alert')).textContent).toBe(refusal);
    expect(screen.getByText('pocket.csv')).toBeTruthy();
    expect(screen.getByText('Pocket export, 1 item')).toBeTruthy();
  });

  it('leaves the file to the server where the browser has no Web Worker', async () => {
    vi.stubGlobal('Worker', undefined);
    try {
      const onStart = vi.fn(async (_input: StartImportInput) => ({}));
      render(<ImportFilePicker online onStart={onStart} />);
      choose(fileOf(POCKET_CSV, 'pocket.csv'));
      await screen.findByText(
        'This browser couldn’t read the file; the server will check it when you start.',
      );
      fireEvent.click(startButton());
      await waitFor(() => expect(onStart).toHaveBeenCalledTimes(1));
      expect(onStart.mock.calls[0]![0].source).toBeUndefined();
    } finally {
      vi.stubGlobal('Worker', InPageImportWorker);
    }
  });

  it('offers no Start while offline', async () => {
    render(<ImportFilePicker online={false} onStart={async () => ({})} />);
    choose(fileOf(POCKET_CSV, 'pocket.csv'));
    await screen.findByText('Pocket export, 1 item');
    expect(startButton().disabled).toBe(true);
  });
});
