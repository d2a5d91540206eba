import { useId, useState } from 'react';
import type { ArticleSummary } from '@lectern/shared-schema';

export interface ArticlePickerProps {
  articles: readonly ArticleSummary[];
  selected: ReadonlySet<string>;
  onChange: (selected: ReadonlySet<string>) => void;
  error?: string | null;
  /** Legend of the group, e.g. 'Articles to add'. */
  legend: string;
}

function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** A filterable checklist of the user's articles. */
export function ArticlePicker({ articles, selected, onChange, error, legend }: ArticlePickerProps) {
  const [filter, setFilter] = useState('');
  const filterId = useId();
  const errorId = useId();
  const wanted = filter.trim().toLowerCase();
  const shown = wanted ? articles.filter((a) => a.title.toLowerCase().includes(wanted)) : articles;

  function toggle(id: string) {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  }

  return (
    <fieldset className="article-picker" aria-describedby={error ? errorId : undefined}>
      <legend className="field__label">
        {legend} <span className="article-picker__count">({selected.size} selected)</span>
      </legend>
      {articles.length > 6 && (
        <>
          <label className="sr-only" htmlFor={filterId}>
            Filter articles
          </label>
          <input
            id={filterId}
            className="input article-picker__filter"
            type="search"
            placeholder="Filter articles by title"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
        </>
      )}
      <ul className="article-picker__list">
        {shown.map((article) => (
          <li key={article.id}>
            <label className="article-picker__option">
              <input type="checkbox" checked={selected.has(article.id)} onChange={() => toggle(article.id)} />
              <span className="article-picker__text">
                <span className="article-picker__title">{article.title}</span>
                <span className="article-picker__site">{siteOf(article.url)}</span>
              </span>
            </label>
          </li>
        ))}
        {shown.length === 0 && <li className="article-picker__none">No article matches “{filter}”.</li>}
      </ul>
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
