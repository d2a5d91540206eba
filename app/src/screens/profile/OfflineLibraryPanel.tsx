import { useEffect, useId, useState } from 'react';
import { Button } from '../../components/Button';
import { useToast } from '../../components/use-toast';
import { MAX_BUDGET_MB, MIN_BUDGET_MB, type OfflineBudget, type OfflineUsage } from '../../data';
import { useOfflineUsage } from '../../hooks/use-offline-usage';
import { useLectern } from '../../session/use-lectern';
import { formatBytes } from './format-bytes';

/**
 * The offline library on this device: what it takes, what the browser grants, how much of it to keep
 * (everything, or the newest N MB of images) and a way to free space. The budget is this device's own.
 */
export function OfflineLibraryPanel() {
  const lectern = useLectern();
  const { showToast } = useToast();
  const { usage, reload } = useOfflineUsage();
  const [freeing, setFreeing] = useState(false);

  async function choose(budget: OfflineBudget) {
    await lectern.offline.setBudget(budget);
    reload();
  }

  async function freeSpace() {
    setFreeing(true);
    try {
      const freed = await lectern.offline.freeSpace();
      showToast(`Freed ${formatBytes(freed)} on this device.`, 'success');
    } finally {
      setFreeing(false);
      reload();
    }
  }

  return (
    <section className="card card--padded profile-section" aria-labelledby="profile-offline">
      <h2 id="profile-offline" className="profile-section__title">
        Offline library
      </h2>
      <p className="profile-section__text">
        Your articles and their pictures are kept on this device, so you can read them without a connection.
      </p>
      {usage ? <UsageList usage={usage} /> : <p className="profile-section__text">Measuring…</p>}
      {usage && <BudgetChoice budget={usage.budget} onChoose={(budget) => void choose(budget)} />}
      <div>
        <Button variant="secondary" busy={freeing} disabled={freeing} onClick={() => void freeSpace()}>
          Free space
        </Button>
        <p className="profile-section__hint">
          Removes the pictures downloaded so far. Articles you save from now on still download theirs, and an
          article you open online fetches its own again.
        </p>
      </div>
    </section>
  );
}

function UsageList({ usage }: { usage: OfflineUsage }) {
  const { articles, images, browser } = usage;
  const granted =
    browser.quota === null
      ? 'Not told by this browser'
      : `${formatBytes(browser.quota)}${browser.usage === null ? '' : `, ${formatBytes(browser.usage)} used`}`;
  return (
    <dl className="offline-usage" aria-label="Offline library size">
      <div className="offline-usage__row">
        <dt>Articles</dt>
        <dd data-testid="offline-articles">
          {formatBytes(articles.bytes)} · {articles.count} {articles.count === 1 ? 'article' : 'articles'}
        </dd>
      </div>
      <div className="offline-usage__row">
        <dt>Images</dt>
        <dd data-testid="offline-images">
          {formatBytes(images.bytes)} · {images.stored} of {images.listed} downloaded
          {images.waiting > 0 ? `, ${images.waiting} to go` : ''}
        </dd>
      </div>
      <div className="offline-usage__row">
        <dt>Storage this browser grants</dt>
        <dd data-testid="offline-granted">
          {granted}
          {browser.persisted ? ' (kept for good)' : ''}
        </dd>
      </div>
    </dl>
  );
}

function BudgetChoice({
  budget,
  onChoose,
}: {
  budget: OfflineBudget;
  onChoose: (budget: OfflineBudget) => void;
}) {
  const id = useId();
  const [megabytes, setMegabytes] = useState(String(budget.kind === 'newest' ? budget.megabytes : 500));
  useEffect(() => {
    if (budget.kind === 'newest') setMegabytes(String(budget.megabytes));
  }, [budget]);
  const number = Number(megabytes);
  const valid = Number.isInteger(number) && number >= MIN_BUDGET_MB && number <= MAX_BUDGET_MB;

  function applyNewest() {
    if (valid && (budget.kind !== 'newest' || budget.megabytes !== number))
      onChoose({ kind: 'newest', megabytes: number });
  }

  return (
    <fieldset className="offline-budget">
      <legend className="offline-budget__legend">Keep on this device</legend>
      <label className="offline-budget__option">
        <input
          type="radio"
          name={`${id}-budget`}
          checked={budget.kind === 'everything'}
          onChange={() => onChoose({ kind: 'everything' })}
        />
        Everything
      </label>
      <div className="offline-budget__option">
        <input
          id={`${id}-newest`}
          type="radio"
          name={`${id}-budget`}
          checked={budget.kind === 'newest'}
          onChange={() => valid && onChoose({ kind: 'newest', megabytes: number })}
        />
        <label htmlFor={`${id}-newest`}>The newest</label>
        <input
          className="input offline-budget__size"
          type="number"
          inputMode="numeric"
          min={MIN_BUDGET_MB}
          max={MAX_BUDGET_MB}
          step={10}
          aria-label="Megabytes of images to keep"
          aria-invalid={!valid || undefined}
          value={megabytes}
          onChange={(event) => setMegabytes(event.target.value)}
          onBlur={applyNewest}
          onKeyDown={(event) => {
            if (event.key === 'Enter') applyNewest();
          }}
        />
        <span aria-hidden="true">MB</span>
      </div>
      {!valid && (
        <p className="field__error">
          Choose between {MIN_BUDGET_MB} and {MAX_BUDGET_MB.toLocaleString('en')} MB.
        </p>
      )}
    </fieldset>
  );
}
