import type { ImportView } from '@lectern/shared-schema';
import { Link } from 'react-router-dom';
import { importInProgress, importTitle } from '../../data';
import { formatCount, formatDateTime, importPhase, pagesDone, PHASE_LABELS, rowsDone } from './import-format';

function ProgressBar({ label, done, total }: { label: string; done: number; total: number }) {
  const share = total > 0 ? Math.min(1, done / total) : 1;
  return (
    <div className="import-meter">
      <div className="import-meter__text">
        <span className="import-meter__label">{label}</span>
        <span className="import-meter__count">
          {formatCount(done)} of {formatCount(total)}
        </span>
      </div>
      <div
        className="import-meter__track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={Math.min(done, total)}
        aria-valuetext={`${formatCount(done)} of ${formatCount(total)}`}
      >
        <span className="import-meter__fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
    </div>
  );
}

function Summary({ view }: { view: ImportView }) {
  const tiles = [
    { label: 'Imported', value: view.imported, tone: 'success' },
    { label: 'Already in your library', value: view.skipped, tone: 'neutral' },
    { label: 'Failed', value: view.failed, tone: view.failed > 0 ? 'danger' : 'neutral' },
  ];
  return (
    <ul className="import-summary" aria-label="Summary">
      {tiles.map((tile) => (
        <li key={tile.label} className={`import-summary__tile import-summary__tile--${tile.tone}`}>
          <span className="import-summary__value">{formatCount(tile.value)}</span>
          <span className="import-summary__label">{tile.label}</span>
        </li>
      ))}
    </ul>
  );
}

function Failures({ view }: { view: ImportView }) {
  const failures = view.failures ?? [];
  if (view.failed === 0 || failures.length === 0) return null;
  return (
    <section className="import-failures" aria-labelledby={`failures-${view.id}`}>
      <h3 id={`failures-${view.id}`} className="import-failures__title">
        Rows that could not be imported
      </h3>
      {failures.length < view.failed && (
        <p className="import-failures__note">
          Showing the first {formatCount(failures.length)} of {formatCount(view.failed)}.
        </p>
      )}
      <div className="import-failures__scroll">
        <table className="import-failures__table">
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {failures.map((failure) => (
              <tr key={`${failure.line}-${failure.reason}`}>
                <td className="import-failures__line">{failure.line}</td>
                <td>
                  {failure.reason}
                  {failure.url && <span className="import-failures__url">{failure.url}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** One import: how far it has got while it runs; once done, what went in, what was skipped, what failed. */
export function ImportProgress({ view }: { view: ImportView }) {
  const phase = importPhase(view);
  const running = importInProgress(view);
  return (
    <div className="import-progress" aria-busy={running}>
      <div className="import-progress__head">
        <div>
          <h2 className="import-progress__title">{importTitle(view)}</h2>
          <p className="import-progress__meta">
            Started {formatDateTime(view.created_at)}
            {view.finished_at && <> · finished {formatDateTime(view.finished_at)}</>}
          </p>
        </div>
        <span className={`import-status import-status--${phase}`} role="status">
          {running && <span className="import-status__dot" aria-hidden="true" />}
          {PHASE_LABELS[phase]}
        </span>
      </div>

      <ProgressBar label="Rows added" done={rowsDone(view)} total={view.total} />
      {view.pages_total > 0 && (
        <ProgressBar label="Pages fetched" done={pagesDone(view)} total={view.pages_total} />
      )}
      {running && (
        <p className="import-progress__note">
          You can leave this page: the import goes on on the server, and articles appear in your library as
          they are added.
        </p>
      )}

      {!running && (
        <>
          <Summary view={view} />
          {view.pages_failed > 0 && (
            <p className="import-progress__note">
              {formatCount(view.pages_failed)} {view.pages_failed === 1 ? 'page' : 'pages'} could not be
              fetched. Those articles are in your library with the reason, and a Retry.
            </p>
          )}
          <Failures view={view} />
          <p>
            <Link to="/" className="import-progress__link">
              Go to your library
            </Link>
          </p>
        </>
      )}
    </div>
  );
}
