import type { ImportView } from '@lectern/shared-schema';
import { importTitle } from '../../data';
import { formatDateTime, importPhase, PHASE_LABELS } from './import-format';

export interface PastImportsProps {
  imports: ImportView[];
  currentId: string | null;
  onShow(id: string): void;
}

/** The reader's imports, newest first: pick one to see how it went or how far it has got. */
export function PastImports({ imports, currentId, onShow }: PastImportsProps) {
  if (imports.length === 0) return <p className="past-imports__empty">No imports yet.</p>;
  return (
    <ul className="past-imports">
      {imports.map((view) => {
        const phase = importPhase(view);
        return (
          <li key={view.id}>
            <button
              type="button"
              className="past-imports__item"
              aria-current={view.id === currentId ? 'true' : undefined}
              onClick={() => onShow(view.id)}
            >
              <span className="past-imports__title">{importTitle(view)}</span>
              <span className="past-imports__meta">
                <span>{formatDateTime(view.created_at)}</span>
                <span className={`import-status import-status--${phase} import-status--sm`}>
                  {PHASE_LABELS[phase]}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
