// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArticleSummary } from '@lectern/shared-schema';
import { CreateListModal, NO_ARTICLES_YET } from './CreateListModal';
import type { NewList } from './use-list-actions';

afterEach(cleanup);

function article(id: string, title: string): ArticleSummary {
  return {
    id,
    url: `https://example.com/${id}`,
    title,
    description: null,
    author: null,
    image_url: null,
    screenshot_url: null,
    article_type: 'web',
    excerpt: null,
    published_date: null,
    site_name: null,
    language: null,
    reading_time: 3,
    reading_progress: 0,
    is_read: false,
    is_favorite: false,
    is_archived: false,
    highlights_count: 0,
    tags: [],
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
  };
}

function renderModal(articles = [article('a', 'Alpha'), article('b', 'Beta'), article('c', 'Gamma')]) {
  const created: NewList[] = [];
  render(
    <MemoryRouter>
      <CreateListModal
        open
        articles={articles}
        onClose={() => undefined}
        onCreate={async (list) => {
          created.push(list);
          return true;
        }}
      />
    </MemoryRouter>,
  );
  return created;
}

describe('CreateListModal', () => {
  it("asks for 'List Name *', an optional description and is public by default", () => {
    renderModal();
    expect((screen.getByLabelText('List Name *') as HTMLInputElement).required).toBe(true);
    expect((screen.getByLabelText('Description') as HTMLTextAreaElement).required).toBe(false);
    expect((screen.getByLabelText(/Public/) as HTMLInputElement).checked).toBe(true);
  });

  it('creates a list with no article picked: articles are optional', async () => {
    const created = renderModal();
    fireEvent.change(screen.getByLabelText('List Name *'), { target: { value: 'Japan trip' } });
    fireEvent.submit(screen.getByLabelText('List Name *').closest('form')!);
    await waitFor(() =>
      expect(created).toEqual([{ name: 'Japan trip', description: '', isPublic: true, articleIds: [] }]),
    );
    expect(screen.queryByText('Select at least one article to add.')).toBeNull();
  });

  it('creates the list with the picked articles in library order', async () => {
    const created = renderModal();
    fireEvent.change(screen.getByLabelText('List Name *'), { target: { value: 'Weekend' } });
    fireEvent.click(screen.getByLabelText(/Gamma/));
    fireEvent.click(screen.getByLabelText(/Alpha/));
    fireEvent.click(screen.getByLabelText(/Public/));
    fireEvent.submit(screen.getByLabelText('List Name *').closest('form')!);
    await waitFor(() =>
      expect(created).toEqual([
        { name: 'Weekend', description: '', isPublic: false, articleIds: ['a', 'c'] },
      ]),
    );
  });

  it('lets a new user with an empty library create a list, to fill later', async () => {
    const created = renderModal([]);
    expect(screen.getByText(NO_ARTICLES_YET)).toBeTruthy();
    expect(screen.queryByText(/A list needs at least one article/)).toBeNull();
    const button = screen.getByRole('button', { name: 'Create list' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    fireEvent.change(screen.getByLabelText('List Name *'), { target: { value: 'Japan trip' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Kyoto and Osaka' } });
    fireEvent.submit(screen.getByLabelText('List Name *').closest('form')!);
    await waitFor(() =>
      expect(created).toEqual([
        { name: 'Japan trip', description: 'Kyoto and Osaka', isPublic: true, articleIds: [] },
      ]),
    );
  });

  it('still needs a name', () => {
    const created = renderModal([]);
    fireEvent.submit(screen.getByLabelText('List Name *').closest('form')!);
    expect(created).toEqual([]);
  });
});
