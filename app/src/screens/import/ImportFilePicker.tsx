import {
  IMPORT_SOURCE_NAMES,
  IMPORT_SOURCES,
  isImportSource,
  type ImportSource,
} from '@lectern/shared-schema';
import { useEffect, useId, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import { Button } from '../../components/Button';
import { AlertIcon, CheckIcon, InfoIcon } from '../../components/icons';
import {
  importErrorOf,
  importTitle,
  previewImportFile,
  type ImportPreview,
  type StartImportInput,
} from '../../data';
import { fileSizeLabel } from './import-format';
import { UploadIcon } from './import-icons';

export interface ImportFilePickerProps {
  online: boolean;
  onStart(input: StartImportInput): Promise<unknown>;
}

/** A file's preview, for the format it was read as ('' when detected). */
interface Read {
  file: File;
  source: ImportSource | '';
  preview: ImportPreview;
}

/**
 * Step one: a file chosen or dropped, what it holds as the server will read it ("Pocket export, 8,412
 * items", or why it can't be imported), an optional forced format, and Start.
 */
export function ImportFilePicker({ online, onStart }: ImportFilePickerProps) {
  const inputId = useId();
  const formatId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<File | null>(null);
  const [source, setSource] = useState<ImportSource | ''>('');
  const [read, setRead] = useState<Read | null>(null);
  const [dragging, setDragging] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Read again whenever the file or the chosen format changes; a read no longer wanted is stopped.
  useEffect(() => {
    if (!chosen) return;
    const controller = new AbortController();
    previewImportFile(chosen, source || undefined, controller.signal).then(
      (preview) => {
        if (!controller.signal.aborted) setRead({ file: chosen, source, preview });
      },
      () => {},
    );
    return () => controller.abort();
  }, [chosen, source]);

  /** Null while the file is being read. */
  const preview = read && read.file === chosen && read.source === source ? read.preview : null;
  const startable = online && preview !== null && preview.kind !== 'refused';

  function choose(file: File | undefined) {
    if (!file) return;
    setError(null);
    setChosen(file);
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  }

  function reset() {
    setChosen(null);
    setSource('');
    setError(null);
    if (inputRef.current) inputRef.current.value = '';
  }

  async function start() {
    if (!chosen || !preview) return;
    setStarting(true);
    setError(null);
    try {
      // The format the reader saw goes with the file: the server imports it as that, or refuses it.
      const detected = preview.kind === 'ready' ? preview.source : undefined;
      await onStart({ file: chosen, name: chosen.name, source: source || detected });
      reset();
    } catch (caught) {
      setError(importErrorOf(caught).message);
    } finally {
      setStarting(false);
    }
  }

  return (
    <div className="import-picker">
      <label
        htmlFor={inputId}
        className={`drop-zone${dragging ? ' drop-zone--active' : ''}${chosen ? ' drop-zone--chosen' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          className="sr-only"
          accept=".csv,.html,.htm,.json,.zip,text/csv,text/html,application/json,application/zip"
          onChange={(event) => choose(event.target.files?.[0])}
        />
        <span className="drop-zone__icon" aria-hidden="true">
          <UploadIcon />
        </span>
        <span className="drop-zone__title">{chosen ? 'Choose another file' : 'Choose your export file'}</span>
        <span className="drop-zone__hint">or drop it here · CSV, HTML, JSON or zip, up to 50 MB</span>
      </label>

      {chosen && (
        <div className="import-file">
          <div className="import-file__facts">
            <p className="import-file__name">{chosen.name}</p>
            <p className="import-file__meta">{fileSizeLabel(chosen.size)}</p>
          </div>
          <div className="import-file__preview" aria-live="polite">
            <FilePreview preview={preview} />
          </div>
          <div className="field import-file__format">
            <label className="field__label" htmlFor={formatId}>
              Format
            </label>
            <select
              id={formatId}
              className="input"
              value={source}
              onChange={(event) => {
                const value = event.target.value;
                setSource(isImportSource(value) ? value : '');
              }}
            >
              <option value="">Detect automatically</option>
              {IMPORT_SOURCES.map((option) => (
                <option key={option} value={option}>
                  {IMPORT_SOURCE_NAMES[option]}
                </option>
              ))}
            </select>
          </div>
          <div className="import-file__actions">
            <Button busy={starting} disabled={!startable} onClick={() => void start()}>
              Start import
            </Button>
            <Button variant="ghost" disabled={starting} onClick={reset}>
              Cancel
            </Button>
          </div>
        </div>
      )}

      {error && (
        <div className="form-alert form-alert--error" role="alert">
          <AlertIcon size={18} />
          <span>{error}</span>
        </div>
      )}
    </div>
  );
}

function FilePreview({ preview }: { preview: ImportPreview | null }) {
  if (preview === null) {
    return (
      <p className="import-file__reading">
        <span className="import-file__spinner" aria-hidden="true" />
        Reading file…
      </p>
    );
  }
  if (preview.kind === 'ready') {
    return (
      <p className="import-file__detected">
        <CheckIcon size={18} />
        <span>{importTitle(preview)}</span>
      </p>
    );
  }
  if (preview.kind === 'refused') {
    return (
      <div className="form-alert form-alert--error" role="alert">
        <AlertIcon size={18} />
        <span>{preview.error}</span>
      </div>
    );
  }
  return (
    <p className="import-file__note">
      <InfoIcon size={18} />
      <span>This browser couldn’t read the file; the server will check it when you start.</span>
    </p>
  );
}
