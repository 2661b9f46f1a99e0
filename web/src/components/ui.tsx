import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { ApiError } from '../api/client';
import { uid } from '../lib/format';

/** A labelled control: `children` receives the id to put on the input. */
export function Field(props: { label: string; hint?: string; children: (id: string, describedBy?: string) => ComponentChildren; class?: string }) {
  const id = useMemo(() => uid('f'), []);
  const hintId = props.hint ? `${id}-hint` : undefined;
  return (
    <div class={`field ${props.class ?? ''}`}>
      <label for={id}>{props.label}</label>
      {props.children(id, hintId)}
      {props.hint && <small id={hintId} class="hint">{props.hint}</small>}
    </div>
  );
}

export interface TextFieldProps {
  label: string;
  value: string | number;
  onValue: (value: string) => void;
  hint?: string;
  class?: string;
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'search' | 'time' | 'date';
  required?: boolean;
  placeholder?: string;
  autoComplete?: string;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  readOnly?: boolean;
  disabled?: boolean;
  spellcheck?: boolean;
}

export function TextField(props: TextFieldProps) {
  const { label, hint, class: className, onValue, type, ...rest } = props;
  return (
    <Field label={label} hint={hint} class={className}>
      {(id, described) => (
        <input id={id} aria-describedby={described} {...rest} type={(type ?? 'text') as 'text'}
          onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)} />
      )}
    </Field>
  );
}

export function SelectField(props: { label: string; hint?: string; value: string; onValue: (value: string) => void; options: Array<[string, string]>; disabled?: boolean; class?: string }) {
  return (
    <Field label={props.label} hint={props.hint} class={props.class}>
      {(id, described) => (
        <select id={id} aria-describedby={described} value={props.value} disabled={props.disabled}
          onChange={(e) => props.onValue((e.currentTarget as HTMLSelectElement).value)}>
          {props.options.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
        </select>
      )}
    </Field>
  );
}

export function CheckField(props: { label: string; checked: boolean; onChecked: (checked: boolean) => void; disabled?: boolean }) {
  const id = useMemo(() => uid('c'), []);
  return (
    <div class="check">
      <input id={id} type="checkbox" checked={props.checked} disabled={props.disabled}
        onChange={(e) => props.onChecked((e.currentTarget as HTMLInputElement).checked)} />
      <label for={id}>{props.label}</label>
    </div>
  );
}

export function Loading(props: { label?: string }) {
  return <p class="loading" role="status"><span class="spinner" aria-hidden="true" />{props.label ?? 'Loading…'}</p>;
}

/** An API failure with its code and `details`; a missing endpoint says so plainly. */
export function ErrorBox(props: { error: unknown; what?: string; onRetry?: () => void }) {
  if (!props.error) return null;
  const error = props.error;
  if (error instanceof ApiError && error.notAvailable) return <NotAvailable what={props.what} />;
  const code = error instanceof ApiError ? error.code : 'ERROR';
  const details = error instanceof ApiError ? error.details : error instanceof Error ? error.message : String(error);
  return (
    <div class="error-box" role="alert">
      <strong>{code}</strong>{details && <span>: {details}</span>}
      {props.onRetry && <button type="button" class="link" onClick={props.onRetry}>Try again</button>}
    </div>
  );
}

export function NotAvailable(props: { what?: string }) {
  return (
    <div class="notice" role="status">
      {props.what ?? 'This feature'} is not available yet on this server (its endpoint answers 404). It will work once the service provides it.
    </div>
  );
}

export const isNotAvailable = (error: unknown) => error instanceof ApiError && error.notAvailable;

export function Empty(props: { children: ComponentChildren }) {
  return <p class="empty">{props.children}</p>;
}

export function StatusBadge(props: { status: string }) {
  return <span class={`badge status-${props.status}`}>{props.status}</span>;
}

/** How a run ended when that says more than its status (stopped, crashed, anti_bot...); nothing otherwise. */
export function OutcomeBadge(props: { status: string; outcome?: string }) {
  if (!props.outcome || props.outcome === props.status) return null;
  // The space before it comes with it: a cell without an outcome badge ends at its status.
  return <>{' '}<span class={`badge outcome-${props.outcome}`} title="outcome">{props.outcome}</span></>;
}

export function PageHeader(props: { title: string; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      <h1 id="page-title">{props.title}</h1>
      {props.children && <div class="toolbar">{props.children}</div>}
    </header>
  );
}

export interface ButtonProps {
  children: ComponentChildren;
  onClick?: () => void;
  busy?: boolean;
  disabled?: boolean;
  variant?: 'primary' | 'danger' | 'ghost';
  class?: string;
  title?: string;
  'aria-label'?: string;
  'aria-expanded'?: boolean;
  'aria-pressed'?: boolean;
}

export function Button(props: ButtonProps) {
  const { busy, variant, children, class: className, disabled, ...rest } = props;
  return (
    <button type="button" {...rest} class={`btn ${variant ?? ''} ${className ?? ''}`} disabled={busy || disabled} aria-busy={busy || undefined}>
      {children}
    </button>
  );
}
