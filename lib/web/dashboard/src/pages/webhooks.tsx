import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ApiError } from '../api.js';
import { call } from '../session.js';
import { Button, CopyButton, DataTable, Dialog, Empty, ErrorNotice, Notice, PageHeader, Pager, QueryView, TextField, formatDate } from '../ui.js';
import { EVENT_TYPES, type Endpoint } from '../webhook-types.js';

/** Webhook endpoints: where the platform sends events, signed with a secret shown once (docs/webhooks.md). */

/** A signing secret, shown once: at creation and after a rotation, never again. */
export function SecretOnce({ secret, note }: { secret: string; note: string }) {
  return (
    <div className="new-secret">
      <Notice kind="success">
        <strong>Copy the signing secret now. You will not see it again.</strong> {note}
      </Notice>
      <div className="secret-row">
        <code className="secret-value" data-testid="webhook-secret" aria-label="Signing secret">
          {secret}
        </code>
        <CopyButton text={secret} label="Copy secret" />
      </div>
    </div>
  );
}

export function EventChoice({ chosen, onChange }: { chosen: ReadonlySet<string>; onChange: (s: Set<string>) => void }) {
  return (
    <fieldset className="choices">
      <legend>Events</legend>
      <p className="hint">None ticked: every event type.</p>
      <div className="event-grid">
        {EVENT_TYPES.map((t) => (
          <label className="check" key={t}>
            <input
              type="checkbox"
              checked={chosen.has(t)}
              onChange={(e) => {
                const next = new Set(chosen);
                if (e.target.checked) next.add(t);
                else next.delete(t);
                onChange(next);
              }}
            />
            <code>{t}</code>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function CreateEndpoint({ onDone }: { onDone: () => void }) {
  const queries = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<Set<string>>(new Set());
  const create = useMutation({
    mutationFn: () => call((c) => c.POST('/api/webhooks', { body: { url, description, ...(events.size ? { eventTypes: EVENT_TYPES.filter((t) => events.has(t)) } : {}) } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['webhooks'] }),
  });
  if (create.data)
    return (
      <>
        <SecretOnce secret={create.data.secret} note="Receivers check each delivery's signature with it (Standard Webhooks)." />
        <div className="dialog-footer">
          <Link className="btn btn-secondary" to={`/webhooks/${create.data._id}`} onClick={onDone}>
            Open the endpoint
          </Link>
          <Button variant="primary" onClick={onDone}>
            Done
          </Button>
        </div>
      </>
    );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <TextField label="URL" type="url" required autoFocus placeholder="https://example.com/hooks/voice" hint="https; the platform POSTs each event as JSON." error={create.error instanceof ApiError ? create.error.forField('url') : undefined} value={url} onChange={(e) => setUrl(e.target.value)} />
      <TextField label="Description" maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
      <EventChoice chosen={events} onChange={setEvents} />
      <ErrorNotice error={create.error} />
      <div className="dialog-footer">
        <Button onClick={onDone}>Cancel</Button>
        <Button variant="primary" type="submit" busy={create.isPending}>
          Create endpoint
        </Button>
      </div>
    </form>
  );
}

export function EndpointStatus({ e }: { e: Endpoint }) {
  return (
    <>
      <span className={`badge badge-${e.status}`}>{e.status === 'enabled' ? 'Enabled' : 'Disabled'}</span>
      {e.disabledReason ? <span className="cell-note">{e.disabledReason.replaceAll('_', ' ')}</span> : null}
      {e.failingSince ? <span className="cell-note">Failing since {formatDate(e.failingSince)}</span> : null}
    </>
  );
}

export function WebhooksPage() {
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const endpoints = useQuery({ queryKey: ['webhooks', page], queryFn: () => call((c) => c.GET('/api/webhooks', { params: { query: { page, limit: 20 } } })), placeholderData: (p) => p });
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints of yours that hear about calls, imports and credits as they happen."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            New endpoint
          </Button>
        }
      />
      <QueryView query={endpoints} what="webhook endpoints">
        {(result) =>
          result.data.length === 0 ? (
            <Empty title="No webhook endpoints yet">
              <p>Add a URL to be told when a call ends, with its transcript and analysis.</p>
            </Empty>
          ) : (
            <>
              <DataTable
                caption="Webhook endpoints"
                rows={result.data}
                rowKey={(e) => e._id}
                columns={[
                  { header: 'URL', className: 'clip', cell: (e) => <Link to={`/webhooks/${e._id}`}>{e.url}</Link> },
                  { header: 'Events', cell: (e) => (e.eventTypes.length === EVENT_TYPES.length ? 'All' : e.eventTypes.length) },
                  { header: 'Status', cell: (e) => <EndpointStatus e={e} /> },
                  { header: 'Created', cell: (e) => formatDate(e.createdAt) },
                ]}
              />
              <Pager page={result.page} limit={result.limit} total={result.total} onPage={setPage} what="Webhook endpoints" />
            </>
          )
        }
      </QueryView>
      <Dialog open={creating} title="New webhook endpoint" onClose={() => setCreating(false)}>
        <CreateEndpoint onDone={() => setCreating(false)} />
      </Dialog>
    </>
  );
}
