import { Button } from '../../components/Button';
import { OfflineIcon } from '../../components/icons';
import { Skeleton } from '../../components/Skeleton';
import { useOnline } from '../../hooks/use-sync-state';
import { ImportFilePicker } from './ImportFilePicker';
import { ImportProgress } from './ImportProgress';
import { PastImports } from './PastImports';
import { useImports } from './use-imports';
import '../../styles/screens.css';
import './import.css';

const WHERE_TO_FIND = [
  {
    name: 'Pocket',
    how: 'the CSV file (or the zip of CSV parts Pocket mailed you), or the older HTML export',
  },
  { name: 'Instapaper', how: 'Settings › Export › Download .CSV file' },
  { name: 'Omnivore', how: 'the export zip with its metadata and highlights' },
  { name: 'Wallabag', how: 'Export › JSON' },
  { name: 'Raindrop', how: 'Settings › Backups › CSV' },
  { name: 'Browsers', how: 'bookmarks exported as HTML from Chrome, Firefox, Safari or Edge' },
];

/** /import: bring a library over from another app, watch it go in, see what failed and why. */
export function ImportPage() {
  const online = useOnline();
  const { imports, currentId, current, readError, show, start } = useImports();

  return (
    <div className="import-page container">
      <header className="screen-header">
        <div>
          <h1 className="screen-header__title">Import your library</h1>
          <p className="screen-header__lead">
            Bring your saves from Pocket, Instapaper, Omnivore, Wallabag, Raindrop or your browser. The dates
            you saved them, their tags and what you had read or archived come along.
          </p>
        </div>
      </header>

      {!online && (
        <div className="import-offline" role="status">
          <OfflineIcon size={18} />
          <span>
            You’re offline. Importing needs a connection to the server; try again once you’re back online.
          </span>
        </div>
      )}

      <div className="import-layout">
        <section className="card card--padded import-main" aria-label={currentId ? 'Import' : 'New import'}>
          {currentId === null ? (
            <>
              <h2 className="import-main__title">Choose a file</h2>
              <ImportFilePicker online={online} onStart={start} />
            </>
          ) : current ? (
            <>
              <ImportProgress view={current} />
              <div className="import-main__again">
                <Button variant="secondary" onClick={() => show(null)}>
                  Import another file
                </Button>
              </div>
            </>
          ) : (
            <div className="import-main__loading" aria-busy="true">
              <Skeleton width="60%" height="1.5rem" />
              <Skeleton width="100%" height="0.75rem" />
              <Skeleton width="100%" height="0.75rem" />
            </div>
          )}
          {/* Offline, the banner above says it already. */}
          {readError && online && (
            <p className="import-main__read-error" role="alert">
              {readError}
            </p>
          )}
        </section>

        <aside className="import-aside">
          <section className="card card--padded import-side" aria-labelledby="past-imports-title">
            <h2 id="past-imports-title" className="import-side__title">
              Your imports
            </h2>
            {imports ? (
              <PastImports imports={imports} currentId={currentId} onShow={show} />
            ) : (
              <Skeleton width="80%" />
            )}
          </section>
          <section className="card card--padded import-side" aria-labelledby="where-title">
            <h2 id="where-title" className="import-side__title">
              Where to find your export
            </h2>
            <dl className="import-sources">
              {WHERE_TO_FIND.map((entry) => (
                <div key={entry.name} className="import-sources__row">
                  <dt>{entry.name}</dt>
                  <dd>{entry.how}</dd>
                </div>
              ))}
            </dl>
          </section>
        </aside>
      </div>
    </div>
  );
}
