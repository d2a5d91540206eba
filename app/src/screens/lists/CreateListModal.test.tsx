// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { articleSummary } from '../../data/testing/article-summary';
import { CreateListModal, NO_ARTICLES_YET } from './CreateListModal';
import type { NewList } from './use-list-actions';

afterEach(cleanup);

const article = (id: string, title: string) => articleSummary(id, { title, reading_time: 3 });

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
