import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { paths } from '../api.js';
import { call, useSignedIn } from '../session.js';
import { Button, ConfirmDialog, CopyButton, DataTable, Dialog, Empty, ErrorNotice, Notice, PageHeader, QueryView, TextArea, TextField, formatDate, type Column } from '../ui.js';

/** Settings → API keys: the seed's flow (docs/dashboard.md). Only an owner manages keys. */

/** A key as GET /api/keys lists it (the generated types of sdk/). */
export type ApiKey = paths['/api/keys']['get']['responses'][200]['content']['application/json']['data'][number];

const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

function CreateKeyForm({ onCreated, onCancel }: { onCreated: (value: string, key: ApiKey) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'full' | 'widget'>('full');
  const [agentIds, setAgentIds] = useState<string[]>([]);
  const [origins, setOrigins] = useState('');
  const agents = useQuery({ queryKey: ['agents', 'options'], queryFn: () => call((c) => c.GET('/api/agents', { params: { query: { limit: 100 } } })), enabled: scope === 'widget' });
  const create = useMutation({
    mutationFn: () =>
      call((c) => c.POST('/api/keys', { body: scope === 'full' ? { name, scope } : { name, scope, agentIds, origins: lines(origins) } })),
    onSuccess: (made) => onCreated(made.value, made.key),
  });
  return (
    <form
      id="create-key"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <TextField label="Name" required maxLength={200} autoFocus hint="What uses this key, for example “CRM sync (production)”." value={name} onChange={(e) => setName(e.target.value)} />
      <fieldset className="choices">
        <legend>Scope</legend>
        <label className="choice">
          <input type="radio" name="scope" value="full" checked={scope === 'full'} onChange={() => setScope('full')} />
          <span>
            <strong>Full access</strong>
            <span className="choice-hint">The whole REST API for this workspace. Keep it on your servers.</span>
          </span>
        </label>
        <label className="choice">
          <input type="radio" name="scope" value="widget" checked={scope === 'widget'} onChange={() => setScope('widget')} />
          <span>
            <strong>Widget</strong>
            <span className="choice-hint">Only starts widget calls, with the agents and from the sites you name. Safe in a web page.</span>
          </span>
        </label>
      </fieldset>
      {scope === 'widget' ? (
        <>
          <fieldset className="choices">
            <legend>Agents the widget may call</legend>
            <QueryView query={agents} what="agents">
              {(page) =>
                page.data.length === 0 ? (
                  <p className="hint">This workspace has no agents yet. Create one first.</p>
                ) : (
                  page.data.map((a) => (
                    <label key={a._id} className="check">
                      <input
                        type="checkbox"
                        checked={agentIds.includes(a._id)}
                        onChange={(e) => setAgentIds(e.target.checked ? [...agentIds, a._id] : agentIds.filter((id) => id !== a._id))}
                      />
                      {a.name}
                    </label>
                  ))
                )
              }
            </QueryView>
          </fieldset>
          <TextArea label="Allowed sites" rows={3} required hint="One origin per line, for example https://www.example.com" value={origins} onChange={(e) => setOrigins(e.target.value)} />
        </>
      ) : null}
      <ErrorNotice error={create.error} />
      <div className="dialog-footer">
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="primary" type="submit" busy={create.isPending}>
          Create key
        </Button>
      </div>
    </form>
  );
}

function NewKeyValue({ value }: { value: string }) {
  return (
    <div className="secret">
      <Notice kind="warning">
        <strong>Copy this key now. You will not see it again.</strong> We keep only a hash of it; if you lose it, revoke it and create another.
      </Notice>
      <div className="secret-row">
        <code className="secret-value" data-testid="new-key-value" aria-label="New API key value">
          {value}
        </code>
        <CopyButton text={value} label="Copy key" />
      </div>
    </div>
  );
}

function KeysTable({ keys, onRevoke }: { keys: readonly ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  const columns: Column<ApiKey>[] = [
    { header: 'Name', cell: (k) => k.name },
    {
      header: 'Scope',
      cell: (k) => (
        <>
          <span className={`badge badge-${k.scope}`}>{k.scope === 'full' ? 'Full access' : 'Widget'}</span>
          {k.scope === 'widget' && k.origins?.length ? <span className="cell-note">{k.origins.join(', ')}</span> : null}
        </>
      ),
    },
    { header: 'Key', cell: (k) => <code>{k.prefix}…</code> },
    { header: 'Created', cell: (k) => formatDate(k.createdAt) },
    { header: 'Last used', cell: (k) => (k.lastUsedAt ? formatDate(k.lastUsedAt) : 'Never') },
    {
      header: 'Actions',
      hideHeader: true,
      className: 'actions',
      cell: (k) => (
        <Button variant="danger" onClick={() => onRevoke(k)} aria-label={`Revoke ${k.name}`}>
          Revoke
        </Button>
      ),
    },
  ];
  return <DataTable caption="API keys" columns={columns} rows={keys} rowKey={(k) => k.id} />;
}

export function ApiKeysPage() {
  const session = useSignedIn();
  const queries = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const owner = session.workspace.role === 'owner';
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => call((c) => c.GET('/api/keys')), enabled: owner });
  const revoke = useMutation({
    mutationFn: (id: string) => call((c) => c.DELETE('/api/keys/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setRevoking(null);
      void queries.invalidateQueries({ queryKey: ['keys'] });
    },
  });
  const closeCreate = () => {
    setCreating(false);
    setCreated(null);
  };
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys let your servers call the REST API for this workspace, and widget keys let a web page start calls. Send a key in the x-api-key header."
        actions={
          owner ? (
            <Button variant="primary" onClick={() => setCreating(true)}>
              Create API key
            </Button>
          ) : null
        }
      />
      {!owner ? (
        <Notice>Only an owner of {session.workspace.name} can see and manage its API keys.</Notice>
      ) : (
        <QueryView query={keys} what="API keys">
          {({ data }) =>
            data.length === 0 ? (
              <Empty title="No API keys yet">
                <p>Create a key to call the API from your own code.</p>
              </Empty>
            ) : (
              <KeysTable keys={data} onRevoke={setRevoking} />
            )
          }
        </QueryView>
      )}
      <Dialog
        open={creating}
        title={created ? 'Your new API key' : 'Create an API key'}
        onClose={closeCreate}
        footer={
          created ? (
            <Button variant="primary" onClick={closeCreate}>
              Done
            </Button>
          ) : null
        }
      >
        {created ? (
          <NewKeyValue value={created} />
        ) : (
          <CreateKeyForm
            onCancel={closeCreate}
            onCreated={(value) => {
              setCreated(value);
              void queries.invalidateQueries({ queryKey: ['keys'] });
            }}
          />
        )}
      </Dialog>
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this key?"
        confirm="Revoke key"
        busy={revoke.isPending}
        error={revoke.error}
        body={
          <p>
            <strong>{revoking?.name}</strong> (<code>{revoking?.prefix}…</code>) stops working at once: every request that sends it is refused. This cannot be undone.
          </p>
        }
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
        onClose={() => {
          setRevoking(null);
          revoke.reset();
        }}
      />
    </>
  );
}
