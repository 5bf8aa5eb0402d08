import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, type Schemas } from '../api.js';
import { chosen } from '../catalog.js';
import { call } from '../session.js';
import { Button, ErrorNotice, Select, TextArea, TextField } from '../ui.js';

/**
 * The tool form, for a new HTTP tool (POST /api/tools) and for editing one (PUT /api/tools/{id}: only the
 * fields sent change). Header values are write-only: the API answers them as `********`, and a masked value
 * sent back keeps the stored one (lib/services/tools.ts). So a stored header's value field starts empty, and
 * left empty it is sent as the mask, which keeps it; typing a value replaces it; removing the row deletes it.
 */

export const MASK = '********';
export type ToolDetail = Schemas['Tool'];
type ToolParameter = ToolDetail['parameters'][number];
type HttpMethod = Schemas['HttpToolCreate']['config']['method'];
type ParamType = NonNullable<ToolParameter['type']>;

const METHODS = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const satisfies readonly HttpMethod[]).map((m) => [m, m] as const);
const PARAM_TYPES = [['string', 'Text'], ['number', 'Number'], ['integer', 'Whole number'], ['boolean', 'Yes or no']] as const satisfies readonly (readonly [ParamType, string])[];

export interface HeaderRow {
  name: string;
  value: string;
  /** A header the tool has: its value is kept unless a new one is typed. */
  stored: boolean;
}

interface ParamRow {
  name: string;
  description: string;
  required: boolean;
  type: string;
  /** Allowed values, comma-separated; empty: any. */
  choices: string;
}

/** The headers a save sends: named rows only; a stored value left empty is sent as the mask, which keeps it. */
export const headersToSend = (rows: HeaderRow[]): Record<string, string> =>
  Object.fromEntries(rows.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.stored && h.value === '' ? MASK : h.value]));

export function HeaderRows({ rows, onChange }: { rows: HeaderRow[]; onChange: (rows: HeaderRow[]) => void }) {
  const update = (i: number, patch: Partial<HeaderRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="choices">
      <legend>Headers</legend>
      <p className="hint">Sent with every request, for example an Authorization header. Values are stored encrypted and never shown again.</p>
      {rows.map((row, i) => (
        <div className="header-row" key={i}>
          <TextField label={`Header ${i + 1} name`} value={row.name} readOnly={row.stored} onChange={(e) => update(i, { name: e.target.value })} />
          <TextField
            label={`Header ${i + 1} value`}
            type="password"
            autoComplete="off"
            placeholder={row.stored ? 'Stored value kept' : ''}
            value={row.value}
            onChange={(e) => update(i, { value: e.target.value })}
          />
          <Button variant="ghost" aria-label={`Remove header ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove
          </Button>
        </div>
      ))}
      <Button variant="ghost" onClick={() => onChange([...rows, { name: '', value: '', stored: false }])}>
        + Add header
      </Button>
    </fieldset>
  );
}

function ParameterRows({ rows, onChange, error }: { rows: ParamRow[]; onChange: (rows: ParamRow[]) => void; error?: ApiError }) {
  const update = (i: number, patch: Partial<ParamRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="choices">
      <legend>Parameters</legend>
      <p className="hint">What the model fills in from the conversation; used as {'{name}'} in the URL or body, or sent as JSON.</p>
      {rows.map((row, i) => (
        <div className="param-row" key={i} role="group" aria-label={`Parameter ${i + 1}`}>
          <div className="grid-2">
            <TextField label={`Parameter ${i + 1} name`} required value={row.name} error={error?.forField(`parameters.${i}.name`)} onChange={(e) => update(i, { name: e.target.value })} />
            <Select label={`Parameter ${i + 1} type`} value={row.type} options={PARAM_TYPES} onChange={(e) => update(i, { type: e.target.value })} />
          </div>
          <TextField label={`Parameter ${i + 1} description`} required value={row.description} error={error?.forField(`parameters.${i}.description`)} onChange={(e) => update(i, { description: e.target.value })} />
          <div className="grid-2">
            <TextField
              label={`Parameter ${i + 1} allowed values`}
              placeholder="morning, afternoon"
              hint="Comma-separated; empty: any value."
              value={row.choices}
              error={error?.forField(`parameters.${i}.enum`)}
              onChange={(e) => update(i, { choices: e.target.value })}
            />
            <label className="check">
              <input type="checkbox" checked={row.required} onChange={(e) => update(i, { required: e.target.checked })} />
              Parameter {i + 1} required
            </label>
          </div>
          <Button variant="ghost" aria-label={`Remove parameter ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove parameter
          </Button>
        </div>
      ))}
      <Button variant="ghost" onClick={() => onChange([...rows, { name: '', description: '', required: true, type: 'string', choices: '' }])}>
        + Add parameter
      </Button>
    </fieldset>
  );
}

function enumValue(text: string, type: string): string | number | boolean {
  if (type === 'number' || type === 'integer') return Number(text);
  if (type === 'boolean') return text.toLowerCase() === 'true';
  return text;
}

const toParameter = (r: ParamRow): ToolParameter => {
  const choices = r.choices.split(',').map((c) => c.trim()).filter(Boolean);
  return { name: r.name.trim(), description: r.description, required: r.required, type: chosen(PARAM_TYPES, r.type) ?? 'string', ...(choices.length ? { enum: choices.map((c) => enumValue(c, r.type)) } : {}) };
};

const toRow = (p: ToolParameter): ParamRow => ({ name: p.name, description: p.description, required: p.required, type: p.type ?? 'string', choices: (p.enum ?? []).join(', ') });

export function ToolForm({ tool, onDone }: { tool?: ToolDetail; onDone: () => void }) {
  const queries = useQueryClient();
  const http = !tool || tool.type === 'http';
  const [name, setName] = useState(tool?.name ?? '');
  const [description, setDescription] = useState(tool?.description ?? '');
  const [method, setMethod] = useState<string>(tool?.config?.method ?? 'POST');
  const [url, setUrl] = useState(tool?.config?.url ?? '');
  const [headers, setHeaders] = useState<HeaderRow[]>(Object.keys(tool?.config?.headers ?? {}).map((h) => ({ name: h, value: '', stored: true })));
  const [headersTouched, setHeadersTouched] = useState(false);
  const [params, setParams] = useState<ParamRow[]>((tool?.parameters ?? []).map(toRow));
  const save = useMutation({
    mutationFn: () => {
      const sentHeaders = headersToSend(headers);
      const config = { method: chosen(METHODS, method) ?? 'POST', url, ...(!tool || headersTouched ? { headers: sentHeaders } : {}) };
      const parameters = params.map(toParameter);
      if (tool) return call((c) => c.PUT('/api/tools/{id}', { params: { path: { id: tool._id } }, body: { name, description, parameters, ...(http ? { config } : {}) } }));
      return call((c) => c.POST('/api/tools', { body: { type: 'http', name, description, parameters, config } }));
    },
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['tools'] });
      if (tool) void queries.invalidateQueries({ queryKey: ['tool', tool._id] });
      onDone();
    },
  });
  const error = save.error instanceof ApiError ? save.error : undefined;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <TextField label="Name" required maxLength={200} autoFocus hint="What the model calls it, for example book_appointment." error={error?.forField('name')} value={name} onChange={(e) => setName(e.target.value)} />
      <TextArea label="Description" required rows={2} hint="When the agent should use it; the model reads this." error={error?.forField('description')} value={description} onChange={(e) => setDescription(e.target.value)} />
      {http ? (
        <>
          <div className="grid-2">
            <Select label="Method" value={method} options={METHODS} onChange={(e) => setMethod(e.target.value)} />
            <TextField label="URL" type="url" required placeholder="https://api.example.com/bookings" error={error?.forField('config.url')} value={url} onChange={(e) => setUrl(e.target.value)} />
          </div>
          <HeaderRows
            rows={headers}
            onChange={(rows) => {
              setHeaders(rows);
              setHeadersTouched(true);
            }}
          />
        </>
      ) : null}
      <ParameterRows rows={params} onChange={setParams} {...(error ? { error } : {})} />
      <ErrorNotice error={save.error} />
      <div className="dialog-footer">
        <Button onClick={onDone}>Cancel</Button>
        <Button variant="primary" type="submit" busy={save.isPending}>
          {tool ? 'Save tool' : 'Create tool'}
        </Button>
      </div>
    </form>
  );
}
