import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../session.js';
import { Button, ConfirmDialog, DataTable, Dialog, Empty, PageHeader, QueryView, formatDate } from '../ui.js';
import { McpToolForm, McpToolList } from './mcp-tool.js';
import { ToolForm, type ToolDetail } from './tool-form.js';

/** Tools: HTTP calls (and integrations, transfers, MCP servers) agents may make mid-call. Header values come back masked. */

type ToolView = ToolDetail;

const TYPE_LABEL: Record<ToolView['type'], string> = { http: 'HTTP request', integration: 'Integration', transfer: 'Transfer', mcp: 'MCP server' };

function ToolDetails({ id, onDelete, onEdit }: { id: string; onDelete: (tool: ToolView) => void; onEdit: (tool: ToolView) => void }) {
  const tool = useQuery({ queryKey: ['tool', id], queryFn: () => call((c) => c.GET('/api/tools/{id}', { params: { path: { id } } })) });
  return (
    <QueryView query={tool} what="the tool">
      {(t) => (
        <div className="tool-detail">
          <dl className="facts">
            <dt>Type</dt>
            <dd>{TYPE_LABEL[t.type] ?? t.type}</dd>
            {t.type === 'mcp' ? (
              <>
                <dt>Server</dt>
                <dd>
                  <code>{t.config?.url}</code>
                </dd>
              </>
            ) : t.config?.url ? (
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
              {t.type === 'mcp' ? (
                "Each server tool's own"
              ) : t.parameters.length === 0 ? (
                'None'
              ) : (
                <ul className="plain">
                  {t.parameters.map((p) => (
                    <li key={p.name}>
                      <code>{p.name}</code> <span className="cell-note inline">{p.type ?? 'string'}{p.required ? ', required' : ''}</span>: {p.description}
                      {p.enum ? <> (one of {p.enum.map((v) => <code key={String(v)}>{String(v)}</code>).reduce<ReactNode[]>((acc, el, i) => (i ? [...acc, ', ', el] : [el]), [])})</> : null}
                    </li>
                  ))}
                </ul>
              )}
            </dd>
            <dt>Updated</dt>
            <dd>{formatDate(t.updatedAt)}</dd>
          </dl>
          {t.type === 'mcp' ? <McpToolList tool={t} /> : null}
          <p className="hint">Header values are write-only: they are masked here and in the API.</p>
          <div className="form-actions">
            <Button variant="primary" onClick={() => onEdit(t)}>
              Edit tool
            </Button>
            <Button variant="danger" onClick={() => onDelete(t)}>
              Delete tool
            </Button>
          </div>
        </div>
      )}
    </QueryView>
  );
}

export function ToolsPage() {
  const queries = useQueryClient();
  const tools = useQuery({ queryKey: ['tools'], queryFn: () => call((c) => c.GET('/api/tools')) });
  const [creating, setCreating] = useState(false);
  const [addingServer, setAddingServer] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ToolView | null>(null);
  const [editing, setEditing] = useState<ToolView | null>(null);
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
          <>
            <Button onClick={() => setAddingServer(true)}>Add MCP server</Button>
            <Button variant="primary" onClick={() => setCreating(true)}>
              New tool
            </Button>
          </>
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
        <ToolForm onDone={() => setCreating(false)} />
      </Dialog>
      <Dialog open={addingServer} title="Add an MCP server" onClose={() => setAddingServer(false)}>
        <McpToolForm onDone={() => setAddingServer(false)} />
      </Dialog>
      <Dialog
        open={open !== null && deleting === null && editing === null}
        title={tools.data?.data.find((t) => t._id === open)?.name ?? 'Tool'}
        onClose={() => setOpen(null)}
        footer={<Button onClick={() => setOpen(null)}>Close</Button>}
      >
        {open ? <ToolDetails id={open} onDelete={setDeleting} onEdit={setEditing} /> : null}
      </Dialog>
      <Dialog open={editing !== null} title={`Edit ${editing?.name ?? 'tool'}`} onClose={() => setEditing(null)}>
        {editing?.type === 'mcp' ? <McpToolForm tool={editing} onDone={() => setEditing(null)} /> : editing ? <ToolForm tool={editing} onDone={() => setEditing(null)} /> : null}
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
