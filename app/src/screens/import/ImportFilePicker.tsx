import {
  IMPORT_SOURCE_NAMES,
  IMPORT_SOURCES,
  isImportSource,
  type ImportSource,
} from '@lectern/shared-schema';
import { useId, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import { Button } from '../../components/Button';
import { AlertIcon } from '../../components/icons';
import { detectImportFile, importErrorOf, type DetectedImportFile, type StartImportInput } from '../../data';
import { fileSizeLabel } from './import-format';
import { UploadIcon } from './import-icons';

export interface ImportFilePickerProps {
  online: boolean;
  onStart(input: StartImportInput): Promise<unknown>;
}

interface Chosen {
  file: File;
  detected: DetectedImportFile | null;
}

/** Step one: a file chosen or dropped, what it looks like, an optional forced format, and Start. */
export function ImportFilePicker({ online, onStart }: ImportFilePickerProps) {
  const inputId = useId();
  const formatId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [source, setSource] = useState<ImportSource | ''>('');
  const [dragging, setDragging] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function choose(file: File | undefined) {
    if (!file) return;
    setError(null);
    setChosen({ file, detected: null });
    detectImportFile(file).then(
      (detected) => setChosen((now) => (now?.file === file ? { file, detected } : now)),
      () => {},
    );
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
    if (!chosen) return;
    setStarting(true);
    setError(null);
    try {
      await onStart({ file: chosen.file, name: chosen.file.name, source: source || undefined });
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
        <div className="import-file" aria-live="polite">
          <div className="import-file__facts">
            <p className="import-file__name">{chosen.file.name}</p>
            <p className="import-file__meta">
              {fileSizeLabel(chosen.file.size)}
              {' · '}
              {chosen.detected ? (
                <span className="import-file__detected">{chosen.detected.label}</span>
              ) : (
                'Looking at the file…'
              )}
            </p>
            {chosen.detected && !chosen.detected.source && (
              <p className="import-file__note">
                This doesn’t look like an export we know; the server will check it, or pick the format below.
              </p>
            )}
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
            <Button busy={starting} disabled={!online} onClick={() => void start()}>
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
