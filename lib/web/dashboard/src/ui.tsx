import { useEffect, useId, useRef, useState, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ApiError } from './api.js';

/** The dashboard's small component kit: native elements, styled by styles.css, accessible by construction. */

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

export function Button({ variant = 'secondary', busy, children, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  return (
    <button type="button" {...rest} className={`btn btn-${variant} ${rest.className ?? ''}`} disabled={rest.disabled || busy} aria-busy={busy || undefined}>
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

interface FieldShell {
  readonly label: string;
  readonly hint?: ReactNode;
  readonly error?: string;
}

/** A label, the control, a hint and an error, wired together with ids. */
function FieldFrame({ label, hint, error, children }: FieldShell & { children: (ids: { id: string; describedBy?: string }) => ReactNode }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy })}
      {hint ? <p className="hint" id={hintId}>{hint}</p> : null}
      {error ? <p className="field-error" id={errorId}>{error}</p> : null}
    </div>
  );
}

export function TextField({ label, hint, error, ...rest }: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame label={label} hint={hint} error={error}>
      {({ id, describedBy }) => <input id={id} aria-describedby={describedBy} aria-invalid={error ? true : undefined} {...rest} />}
    </FieldFrame>
  );
}

export function TextArea({ label, hint, error, ...rest }: FieldShell & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame label={label} hint={hint} error={error}>
      {({ id, describedBy }) => <textarea id={id} aria-describedby={describedBy} aria-invalid={error ? true : undefined} {...rest} />}
    </FieldFrame>
  );
}

export function Select({ label, hint, error, options, ...rest }: FieldShell & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly (readonly [string, string])[] }) {
  return (
    <FieldFrame label={label} hint={hint} error={error}>
      {({ id, describedBy }) => (
        <select id={id} aria-describedby={describedBy} {...rest}>
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/** What went wrong, in the server's words, with the 402 explained where it bites. */
export function ErrorNotice({ error }: { error: unknown }) {
  // A new error is brought into view: the button that caused it may sit low on the page, the notice below it.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [error]);
  if (!error) return null;
  const e = error instanceof ApiError ? error : new ApiError(0, 'error', error instanceof Error ? error.message : String(error));
  return (
    <div className="notice notice-error" role="alert" ref={ref}>
      <p>{e.message}</p>
      {e.details.length > 0 ? (
        <ul>
          {e.details.map((d, i) => (
            <li key={i}>{d.field ? <code>{d.field}</code> : null} {d.message}</li>
          ))}
        </ul>
      ) : null}
      {e.status === 402 ? (
        <p>
          Every call reserves credits before it starts
          {typeof e.info.required === 'number' ? ` (${e.info.required} needed, ${String(e.info.available ?? 0)} available)` : ''}, and this workspace has too few.
          See <Link to="/credits">Credits</Link> for the balance and how reservations work.
        </p>
      ) : null}
    </div>
  );
}

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'success' | 'warning'; children: ReactNode }) {
  return (
    <div className={`notice notice-${kind}`} role="status">
      {children}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <div className="state" role="status">
      <span className="spinner" aria-hidden="true" /> Loading {what}…
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children}
    </div>
  );
}

/** The three states of a query: loading, failed (with Retry), and the data. */
export function QueryView<T>({ query, what, children }: { query: UseQueryResult<T>; what: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading what={what} />;
  if (query.isError)
    return (
      <div className="state">
        <ErrorNotice error={query.error} />
        <Button onClick={() => void query.refetch()}>Retry</Button>
      </div>
    );
  return <>{children(query.data)}</>;
}

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {description ? <p className="page-description">{description}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  );
}

/**
 * A modal on the native <dialog>: the browser traps focus, closes on Escape and makes the rest inert.
 * `open` drives it; `onClose` hears every way it closes.
 */
export function Dialog({ open, title, onClose, children, footer }: { open: boolean; title: string; onClose: () => void; children: ReactNode; footer?: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose}>
      {open ? (
        <>
          <h2 id={titleId}>{title}</h2>
          <div className="dialog-body">{children}</div>
          {footer ? <div className="dialog-footer">{footer}</div> : null}
        </>
      ) : null}
    </dialog>
  );
}

/**
 * "Are you sure?" for what cannot be undone; the way back has focus first. `dismiss` names it (default
 * "Cancel") where "Cancel" would be ambiguous, as beside "Cancel campaign".
 */
export function ConfirmDialog(props: { open: boolean; title: string; body: ReactNode; confirm: string; dismiss?: string; busy?: boolean; error?: unknown; onConfirm: () => void; onClose: () => void }) {
  return (
    <Dialog
      open={props.open}
      title={props.title}
      onClose={props.onClose}
      footer={
        <>
          <Button autoFocus onClick={props.onClose}>
            {props.dismiss ?? 'Cancel'}
          </Button>
          <Button variant="danger" busy={props.busy} onClick={props.onConfirm}>
            {props.confirm}
          </Button>
        </>
      }
    >
      {props.body}
      <ErrorNotice error={props.error} />
    </Dialog>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      onClick={() => {
        void navigator.clipboard.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        });
      }}
    >
      {copied ? 'Copied' : label}
      <span className="visually-hidden" aria-live="polite">
        {copied ? ' to the clipboard' : ''}
      </span>
    </Button>
  );
}

export function Pager({ page, limit, total, onPage, what }: { page: number; limit: number; total: number; onPage: (page: number) => void; what: string }) {
  const pages = Math.max(1, Math.ceil(total / limit));
  if (total === 0) return null;
  const first = (page - 1) * limit + 1;
  const last = Math.min(total, page * limit);
  if (pages === 1) return <p className="pager">{`Showing all ${total}`}</p>;
  return (
    <nav className="pager" aria-label={`${what} pages`}>
      <span>
        {first}–{last} of {total}
      </span>
      <Button disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span aria-current="page">
        Page {page} of {pages}
      </span>
      <Button disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const formatDate = (iso?: string | null) => (iso ? dateTime.format(new Date(iso)) : '—');

export function formatDuration(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m > 0 ? `${m} min ${s} s` : `${s} s`;
}

export const formatCredits = (n: number) => n.toLocaleString(undefined, { maximumFractionDigits: 2 });

/** A value that follows `value` after `ms` of quiet (search boxes). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

export interface Column<T> {
  readonly header: string;
  readonly cell: (row: T) => ReactNode;
  /** `num` right-aligns figures, `actions` is the narrow button column. */
  readonly className?: string;
  /** The header is read by screen readers only (an actions column). */
  readonly hideHeader?: boolean;
}

/** A table of rows, with a caption for assistive technology and a scrolling wrapper for narrow screens. */
export function DataTable<T>({ caption, columns, rows, rowKey, scroll }: { caption: string; columns: readonly Column<T>[]; rows: readonly T[]; rowKey: (row: T) => string; scroll?: boolean }) {
  const table = (
    <table>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c.header} className={c.className}>
              {c.hideHeader ? <span className="visually-hidden">{c.header}</span> : c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c) => (
              <td key={c.header} className={c.className}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  // A scrolling region must be reachable by keyboard, so it is focusable and named.
  return scroll ? (
    <div className="table-wrap table-scroll" tabIndex={0} role="region" aria-label={caption}>
      {table}
    </div>
  ) : (
    <div className="table-wrap">{table}</div>
  );
}
