import type { ComponentPropsWithRef } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

export interface ButtonLook {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Stretch to the full width of the container. */
  block?: boolean;
}

/** The class list of a button, also for links that should look like one (e.g. the Google sign-in link). */
export function buttonClassName({
  variant = 'primary',
  size = 'md',
  block = false,
}: ButtonLook = {}): string {
  return [
    'button',
    `button--${variant}`,
    size === 'md' ? '' : `button--${size}`,
    block ? 'button--block' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export interface ButtonProps extends ComponentPropsWithRef<'button'>, ButtonLook {
  /** Shows a spinner and disables the button while an action runs. */
  busy?: boolean;
}

export function Button({
  variant,
  size,
  block,
  busy = false,
  className,
  type = 'button',
  disabled,
  children,
  ...rest
}: ButtonProps) {
  const classes = [buttonClassName({ variant, size, block }), className].filter(Boolean).join(' ');
  return (
    <button
      {...rest}
      type={type}
      className={classes}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      {busy && <span className="button__spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
