// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArticleSummary } from '@lectern/shared-schema';
import { CreateListModal, PICK_ONE_ARTICLE } from './CreateListModal';
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

  it('needs at least one article, then creates the list with the picked ones in library order', async () => {
    const created = renderModal();
    fireEvent.change(screen.getByLabelText('List Name *'), { target: { value: 'Weekend' } });
    fireEvent.submit(screen.getByLabelText('List Name *').closest('form')!);
    expect(await screen.findByText(PICK_ONE_ARTICLE)).toBeTruthy();
    expect(created).toEqual([]);

    fireEvent.click(screen.getByLabelText(/Gamma/));
    fireEvent.click(screen.getByLabelText(/Alpha/));
    fireEvent.click(screen.getByLabelText(/Public/));
    expect(screen.queryByText(PICK_ONE_ARTICLE)).toBeNull();
    fireEvent.submit(screen.getByLabelText('List Name *').closest('form')!);
    await screen.findByLabelText('List Name *');
    expect(created).toEqual([{ name: 'Weekend', description: '', isPublic: false, articleIds: ['a', 'c'] }]);
  });

  it('says a list needs an article when the library is empty', () => {
    renderModal([]);
    expect(screen.getByText(/A list needs at least one article/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Create list' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
