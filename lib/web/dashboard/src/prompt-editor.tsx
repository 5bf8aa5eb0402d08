import { useId, useRef } from 'react';
import { segments, variablesIn } from './template.js';

/**
 * A textarea with its `{{variables}}` highlighted: the text is drawn twice, once in a layer behind (the
 * colours, hidden from assistive technology) and once in the textarea itself with transparent glyphs and a
 * visible caret, scrolled together. Under it, each variable used and whether contacts have that field.
 */
export function PromptEditor(props: { label: string; value: string; onChange: (value: string) => void; known: ReadonlySet<string>; knownLoaded: boolean; rows?: number; hint?: string }) {
  const id = useId();
  const backdrop = useRef<HTMLDivElement>(null);
  const used = variablesIn(props.value);
  const unknown = used.filter((name) => !props.known.has(name));
  const sync = (el: HTMLTextAreaElement) => {
    if (backdrop.current) {
      backdrop.current.scrollTop = el.scrollTop;
      backdrop.current.scrollLeft = el.scrollLeft;
    }
  };
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <div className="prompt-editor">
        <div className="prompt-backdrop" ref={backdrop} aria-hidden="true">
          {segments(props.value, props.known).map((s, i) =>
            s.variable ? (
              <mark key={i} className={s.variable.known ? 'var-known' : 'var-unknown'}>
                {s.text}
              </mark>
            ) : (
              <span key={i}>{s.text}</span>
            ),
          )}
          {/* A trailing newline would otherwise collapse and the layers would drift by a line. */}
          {'\n'}
        </div>
        <textarea
          id={id}
          rows={props.rows ?? 8}
          spellCheck
          value={props.value}
          aria-describedby={`${id}-vars`}
          onChange={(e) => props.onChange(e.target.value)}
          onScroll={(e) => sync(e.currentTarget)}
        />
      </div>
      <div className="hint" id={`${id}-vars`} aria-live="polite">
        {props.hint ? <p>{props.hint}</p> : null}
        {used.length === 0 ? null : (
          <p>
            Variables:{' '}
            {used.map((name) => (
              <code key={name} className={props.known.has(name) ? 'var-known' : 'var-unknown'}>
                {`{{${name}}}`}
              </code>
            ))}
          </p>
        )}
        {props.knownLoaded && unknown.length > 0 ? (
          <p className="var-warning">
            No contact has {unknown.length === 1 ? 'the field' : 'the fields'} {unknown.map((n) => `“${n}”`).join(', ')}: a call must then be given{' '}
            {unknown.length === 1 ? 'it' : 'them'} in its <code>variables</code>, or it is refused. Check the spelling (names are case-sensitive), add the
            column to your contacts, or give a default: <code>{`{{${unknown[0]}|…}}`}</code>.
          </p>
        ) : null}
      </div>
    </div>
  );
}
