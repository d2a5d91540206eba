import { useId, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { ChevronDownIcon } from './icons';

export interface AccordionItem {
  id: string;
  title: ReactNode;
  content: ReactNode;
}

export interface AccordionProps {
  items: readonly AccordionItem[];
  /** The heading level of each question, so the page outline stays intact. */
  headingLevel?: 2 | 3 | 4;
  /** Items open on first render. */
  defaultOpenIds?: readonly string[];
}

/**
 * Disclosure buttons per the WAI-ARIA accordion pattern; several items may be open at once, and the arrow,
 * Home and End keys move between the headers.
 */
export function Accordion({ items, headingLevel = 3, defaultOpenIds = [] }: AccordionProps) {
  const [openIds, setOpenIds] = useState<ReadonlySet<string>>(() => new Set(defaultOpenIds));
  const baseId = useId();
  const triggers = useRef<(HTMLButtonElement | null)[]>([]);
  const Heading = `h${headingLevel}` as const;

  function toggle(id: string) {
    setOpenIds((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  function moveFocus(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = items.length - 1;
    const target = {
      ArrowDown: index === last ? 0 : index + 1,
      ArrowUp: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    triggers.current[target]?.focus();
  }

  return (
    <div className="accordion">
      {items.map((item, index) => {
        const open = openIds.has(item.id);
        const triggerId = `${baseId}-${item.id}-trigger`;
        const panelId = `${baseId}-${item.id}-panel`;
        return (
          <div className="accordion__item" key={item.id}>
            <Heading className="accordion__heading">
              <button
                ref={(element) => {
                  triggers.current[index] = element;
                }}
                type="button"
                id={triggerId}
                className="accordion__trigger"
                aria-expanded={open}
                aria-controls={panelId}
                onClick={() => toggle(item.id)}
                onKeyDown={(event) => moveFocus(event, index)}
              >
                {item.title}
                <ChevronDownIcon className="accordion__chevron" />
              </button>
            </Heading>
            <div id={panelId} className="accordion__panel" aria-labelledby={triggerId} hidden={!open}>
              {item.content}
            </div>
          </div>
        );
      })}
    </div>
  );
}
