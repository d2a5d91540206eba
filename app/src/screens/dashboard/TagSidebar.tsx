import type { Tag } from '@lectern/shared-schema';
import { TagIcon } from '../../components/icons';
import { countOf } from './article-format';

export interface TagSidebarProps {
  tags: Tag[] | undefined;
  selected: string | null;
  onSelect(name: string): void;
}

/** Every tag with its article count; choosing one filters the grid by it. */
export function TagSidebar({ tags, selected, onSelect }: TagSidebarProps) {
  return (
    <aside className="tag-sidebar" aria-labelledby="tag-sidebar-title">
      <h2 id="tag-sidebar-title" className="tag-sidebar__title">
        <TagIcon size={16} />
        Tags
      </h2>
      {tags && tags.length === 0 && (
        <p className="tag-sidebar__empty">No tags yet. Add some when you save an article.</p>
      )}
      {tags && tags.length > 0 && (
        <ul className="tag-sidebar__list">
          {tags.map((tag) => {
            const active = selected !== null && selected.toLowerCase() === tag.name.toLowerCase();
            return (
              <li key={tag.id}>
                <button
                  type="button"
                  className="tag-sidebar__tag"
                  aria-pressed={active}
                  onClick={() => onSelect(tag.name)}
                >
                  <span className="tag-sidebar__name">{tag.name}</span>
                  <span className="tag-sidebar__count" aria-hidden="true">
                    {tag.article_count}
                  </span>
                  <span className="sr-only">, {countOf(tag.article_count, 'article')}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </aside>
  );
}
