// @vitest-environment happy-dom
// The import's states as the screen shows them: running (rows and pages counted), done with a summary and
// the failed rows with their line and reason.
import type { ImportView } from '@lectern/shared-schema';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { ImportProgress } from './ImportProgress';
import { PastImports } from './PastImports';

function view(fields: Partial<ImportView>): ImportView {
  return {
    id: 'import-1',
    source: 'pocket',
    status: 'running',
    total: 8412,
    imported: 0,
    skipped: 0,
    failed: 0,
    pages_total: 0,
    pages_fetched: 0,
    pages_failed: 0,
    created_at: '2026-11-20T09:30:00.000Z',
    finished_at: null,
    ...fields,
  };
}

const show = (fields: Partial<ImportView>) =>
  render(
    <MemoryRouter>
      <ImportProgress view={view(fields)} />
    </MemoryRouter>,
  );

describe('ImportProgress', () => {
  afterEach(cleanup);

  it('names the file as the server read it and counts rows and pages while it runs', () => {
    show({
      imported: 3000,
      skipped: 400,
      failed: 12,
      pages_total: 3000,
      pages_fetched: 1200,
      pages_failed: 5,
    });
    expect(screen.getByRole('heading', { name: 'Pocket export, 8,412 items' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Adding to your library');
    const rows = screen.getByRole('progressbar', { name: 'Rows added' });
    expect(rows.getAttribute('aria-valuenow')).toBe('3412');
    expect(rows.getAttribute('aria-valuemax')).toBe('8412');
    expect(screen.getByText('3,412 of 8,412')).toBeTruthy();
    const pages = screen.getByRole('progressbar', { name: 'Pages fetched' });
    expect(pages.getAttribute('aria-valuetext')).toBe('1,205 of 3,000');
    expect(screen.getByText(/You can leave this page/)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Summary' })).toBeNull();
  });

  it('says it is fetching pages once every row is in', () => {
    show({ total: 2, imported: 2, pages_total: 2, pages_fetched: 1 });
    expect(screen.getByRole('status').textContent).toBe('Fetching pages');
  });

  it('sums up a finished import and lists the failed rows with their line and reason', () => {
    show({
      status: 'done',
      total: 6,
      imported: 3,
      skipped: 2,
      failed: 1,
      pages_total: 3,
      pages_fetched: 2,
      pages_failed: 1,
      finished_at: '2026-11-20T09:31:00.000Z',
      failures: [{ line: 6, url: null, reason: 'Not a valid URL: not an address' }],
    });
    expect(screen.getByRole('status').textContent).toBe('Done');
    const summary = within(screen.getByRole('list', { name: 'Summary' }));
    expect(summary.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '3Imported',
      '2Already in your library',
      '1Failed',
    ]);
    expect(screen.getByText(/1 page could not be fetched/)).toBeTruthy();
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(['LineReason', '6Not a valid URL: not an address']);
    expect(screen.getByRole('link', { name: 'Go to your library' }).getAttribute('href')).toBe('/');
  });

  it('says when only the first failed rows are shown', () => {
    show({
      status: 'done',
      total: 5000,
      failed: 1500,
      failures: Array.from({ length: 1000 }, (_, i) => ({
        line: i + 2,
        url: null,
        reason: 'Not a valid URL',
      })),
    });
    expect(screen.getByText('Showing the first 1,000 of 1,500.')).toBeTruthy();
  });
});

describe('PastImports', () => {
  afterEach(cleanup);

  it('lists imports with their state and marks the one on show', () => {
    render(
      <PastImports
        imports={[view({ id: 'a' }), view({ id: 'b', source: 'bookmarks', total: 1, status: 'done' })]}
        currentId="a"
        onShow={() => {}}
      />,
    );
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((button) => button.querySelector('.past-imports__title')?.textContent)).toEqual([
      'Pocket export, 8,412 items',
      'Browser bookmarks, 1 item',
    ]);
    expect(buttons[0]!.getAttribute('aria-current')).toBe('true');
    expect(buttons[1]!.textContent).toContain('Done');
  });

  it('says when there is none yet', () => {
    render(<PastImports imports={[]} currentId={null} onShow={() => {}} />);
    expect(screen.getByText('No imports yet.')).toBeTruthy();
  });
});
