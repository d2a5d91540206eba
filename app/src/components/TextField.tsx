import { useId } from 'react';
import type { ComponentPropsWithRef, ReactNode } from 'react';

interface FieldShellProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  children: ReactNode;
}

function FieldShell({ id, label, hint, error, children }: FieldShellProps) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint && !error && (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The ids a control points at with aria-describedby: the error replaces the hint while there is one. */
function describedBy(id: string, hint: ReactNode, error: string | null | undefined): string | undefined {
  if (error) return `${id}-error`;
  if (hint) return `${id}-hint`;
  return undefined;
}

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
}

export type TextFieldProps = ComponentPropsWithRef<'input'> & FieldProps;

/** A labelled single-line input with an optional hint and an error that marks it invalid. */
export function TextField({ label, hint, error, id, className, ...inputProps }: TextFieldProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  return (
    <FieldShell id={fieldId} label={label} hint={hint} error={error}>
      <input
        {...inputProps}
        id={fieldId}
        className={['input', className].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, hint, error)}
      />
    </FieldShell>
  );
}

export type TextAreaFieldProps = ComponentPropsWithRef<'textarea'> & FieldProps;

/** The multi-line sibling of TextField. */
export function TextAreaField({ label, hint, error, id, className, ...textareaProps }: TextAreaFieldProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  return (
    <FieldShell id={fieldId} label={label} hint={hint} error={error}>
      <textarea
        {...textareaProps}
        id={fieldId}
        className={['input', className].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, hint, error)}
      />
    </FieldShell>
  );
}
