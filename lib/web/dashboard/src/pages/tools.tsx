import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../api.js';
import { call } from '../session.js';
import { Button, ConfirmDialog, DataTable, Dialog, Empty, ErrorNotice, PageHeader, QueryView, Select, TextArea, TextField, formatDate } from '../ui.js';

/** Tools: HTTP calls (and integrations, transfers) agents may make mid-call. Header values come back masked. */

type ToolDetail = Schemas['Tool'];
type HttpMethod = Schemas['HttpToolCreate']['config']['method'];

const TYPE_LABEL: Record<string, string> = { http: 'HTTP request', integration: 'Integration', transfer: 'Transfer' };
const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const METHODS = HTTP_METHODS.map((m) => [m, m] as const);

interface HeaderRow {
  name: string;
  value: string;
}

function HeaderRows({ rows, onChange }: { rows: HeaderRow[]; onChange: (rows: HeaderRow[]) => void }) {
  const update = (i: number, patch: Partial<HeaderRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="choices">
      <legend>Headers</legend>
      <p className="hint">Sent with every request, for example an Authorization header. Values are stored encrypted and never shown again.</p>
      {rows.map((row, i) => (
        <div className="header-row" key={i}>
          <TextField label={`Header ${i + 1} name`} value={row.name} onChange={(e) => update(i, { name: e.target.value })} />
          <TextField label={`Header ${i + 1} value`} type="password" autoComplete="off" value={row.value} onChange={(e) => update(i, { value: e.target.value })} />
          <Button variant="ghost" aria-label={`Remove header ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove
          </Button>
        </div>
      ))}
      <Button variant="ghost" onClick={() => onChange([...rows, { name: '', value: '' }])}>
        + Add header
      </Button>
    </fieldset>
  );
}

function CreateToolForm({ onDone }: { onDone: () => void }) {
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [method, setMethod] = useState<HttpMethod>('POST');
  const [url, setUrl] = useState('');
  const [headers, setHeaders] = useState<HeaderRow[]>([]);
  const create = useMutation({
    mutationFn: () =>
      call((c) =>
        c.POST('/api/tools', {
          body: {
            name,
            type: 'http',
            description,
            config: { method, url, ...(headers.length ? { headers: Object.fromEntries(headers.filter((h) => h.name).map((h) => [h.name, h.value])) } : {}) },
          },
        }),
      ),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['tools'] });
      onDone();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <TextField label="Name" required maxLength={200} autoFocus hint="What the model calls it, for example book_appointment." value={name} onChange={(e) => setName(e.target.value)} />
      <TextArea label="Description" required rows={2} hint="When the agent should use it; the model reads this." value={description} onChange={(e) => setDescription(e.target.value)} />
      <div className="grid-2">
        <Select label="Method" value={method} options={METHODS} onChange={(e) => setMethod(HTTP_METHODS.find((m) => m === e.target.value) ?? method)} />
        <TextField label="URL" type="url" required placeholder="https://api.example.com/bookings" value={url} onChange={(e) => setUrl(e.target.value)} />
      </div>
      <HeaderRows rows={headers} onChange={setHeaders} />
      <ErrorNotice error={create.error} />
      <div className="dialog-footer">
        <Button onClick={onDone}>Cancel</Button>
        <Button variant="primary" type="submit" busy={create.isPending}>
          Create tool
        </Button>
      </div>
    </form>
  );
}

function ToolDetails({ id, onDelete }: { id: string; onDelete: (tool: ToolDetail) => void }) {
  const tool = useQuery({ queryKey: ['tool', id], queryFn: () => call((c) => c.GET('/api/tools/{id}', { params: { path: { id } } })) });
  return (
    <QueryView query={tool} what="the tool">
      {(t) => (
        <div className="tool-detail">
          <dl className="facts">
            <dt>Type</dt>
            <dd>{TYPE_LABEL[t.type] ?? t.type}</dd>
            {t.config?.url ? (
              <>
                <dt>Request</dt>
                <dd>
                  <code>
                    {t.config.method ?? 'POST'} {t.config.url}
                  </code>
                </dd>
              </>
            ) : null}
            <dt>Headers</dt>
            <dd>
              {t.config?.headers && Object.keys(t.config.headers).length > 0 ? (
                <ul className="plain">
                  {Object.entries(t.config.headers).map(([k, v]) => (
                    <li key={k}>
                      <code>{k}</code>: <code aria-label="value hidden">{v}</code>
                    </li>
                  ))}
                </ul>
              ) : (
                'None'
              )}
            </dd>
            <dt>Parameters</dt>
            <dd>
              {t.parameters.length === 0 ? (
                'None'
              ) : (
                <ul className="plain">
                  {t.parameters.map((p) => (
                    <li key={p.name}>
                      <code>{p.name}</code>
                      {p.required ? ' (required)' : ''}: {p.description}
                    </li>
                  ))}
                </ul>
              )}
            </dd>
            <dt>Updated</dt>
            <dd>{formatDate(t.updatedAt)}</dd>
          </dl>
          <p className="hint">Header values are write-only: they are masked here and in the API.</p>
          <Button variant="danger" onClick={() => onDelete(t)}>
            Delete tool
          </Button>
        </div>
      )}
    </QueryView>
  );
}

export function ToolsPage() {
  const queries = useQueryClient();
  const tools = useQuery({ queryKey: ['tools'], queryFn: () => call((c) => c.GET('/api/tools')) });
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ToolDetail | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => call((c) => c.DELETE('/api/tools/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setDeleting(null);
      setOpen(null);
      void queries.invalidateQueries({ queryKey: ['tools'] });
    },
  });
  return (
    <>
      <PageHeader
        title="Tools"
        description="Actions your agents can take during a call: look something up, book, transfer."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            New tool
          </Button>
        }
      />
      <QueryView query={tools} what="tools">
        {({ data }) =>
          data.length === 0 ? (
            <Empty title="No tools yet">
              <p>Give agents an HTTP endpoint to call, for example to check availability.</p>
            </Empty>
          ) : (
            <DataTable
              caption="Tools"
              rows={data}
              rowKey={(t) => t._id}
              columns={[
                {
                  header: 'Name',
                  cell: (t) => (
                    <button type="button" className="link" onClick={() => setOpen(t._id)}>
                      {t.name}
                    </button>
                  ),
                },
                { header: 'Type', cell: (t) => TYPE_LABEL[t.type] ?? t.type },
                { header: 'Description', className: 'clip', cell: (t) => t.description },
                { header: 'Created', cell: (t) => formatDate(t.createdAt) },
              ]}
            />
          )
        }
      </QueryView>
      <Dialog open={creating} title="New HTTP tool" onClose={() => setCreating(false)}>
        <CreateToolForm onDone={() => setCreating(false)} />
      </Dialog>
      <Dialog
        open={open !== null && deleting === null}
        title={tools.data?.data.find((t) => t._id === open)?.name ?? 'Tool'}
        onClose={() => setOpen(null)}
        footer={<Button onClick={() => setOpen(null)}>Close</Button>}
      >
        {open ? <ToolDetails id={open} onDelete={setDeleting} /> : null}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this tool?"
        confirm="Delete tool"
        busy={remove.isPending}
        error={remove.error}
        body={<p>Agents stop offering {deleting?.name} on new calls.</p>}
        onConfirm={() => deleting && remove.mutate(deleting._id)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
