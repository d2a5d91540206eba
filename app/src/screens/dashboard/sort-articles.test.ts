import { describe, expect, it } from 'vitest';
import { sortArticles } from './sort-articles';

const articles = [
  { id: 'a', title: 'banana bread', created_at: '2026-03-02T10:00:00.000Z' },
  { id: 'b', title: 'Álgebra basics', created_at: '2026-03-01T10:00:00.000Z' },
  { id: 'c', title: 'Chapter 10', created_at: '2026-03-03T10:00:00.000Z' },
  { id: 'd', title: 'Chapter 2', created_at: '2026-03-03T10:00:00.000Z' },
];

const ids = (list: { id: string }[]) => list.map((article) => article.id);

describe('sortArticles', () => {
  it('orders Newest First and Oldest First by the save time, ties by id', () => {
    expect(ids(sortArticles(articles, 'newest'))).toEqual(['d', 'c', 'a', 'b']);
    expect(ids(sortArticles(articles, 'oldest'))).toEqual(['b', 'a', 'c', 'd']);
  });

  it('orders A-Z ignoring case and accents, numbers by value', () => {
    expect(ids(sortArticles(articles, 'title'))).toEqual(['b', 'a', 'd', 'c']);
  });

  it('leaves the input as it was', () => {
    sortArticles(articles, 'title');
    expect(ids(articles)).toEqual(['a', 'b', 'c', 'd']);
  });
});
