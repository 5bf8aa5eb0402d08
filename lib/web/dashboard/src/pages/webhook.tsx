import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { chosen as option } from '../catalog.js';
import { LIVE_REFRESH_MS } from '../live.js';
import { call } from '../session.js';
import { Button, ConfirmDialog, DataTable, ErrorNotice, Notice, PageHeader, Pager, QueryView, Select, formatDate } from '../ui.js';
import { EVENT_TYPES, type Delivery, type Endpoint } from '../webhook-types.js';
import { EndpointStatus, EventChoice, SecretOnce } from './webhooks.js';

/** One webhook endpoint: enable or disable, its events, test, rotate the secret, delete; its deliveries and replays. */

const DELIVERY_STATES = [['pending', 'Pending'], ['retrying', 'Retrying'], ['succeeded', 'Succeeded'], ['failed', 'Failed']] as const satisfies readonly (readonly [Delivery['status'], string])[];

function lastAttempt(d: Delivery): string {
  const a = d.attempts.at(-1);
  if (!a) return '—';
  return `${a.status ?? a.error ?? 'no answer'} · ${Math.round(a.latencyMs)} ms`;
}

function Deliveries({ id }: { id: string }) {
  const queries = useQueryClient();
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const deliveries = useQuery({
    queryKey: ['deliveries', id, status, page],
    queryFn: () => call((c) => c.GET('/api/webhooks/{id}/deliveries', { params: { path: { id }, query: { status: option(DELIVERY_STATES, status), page, limit: 20 } } })),
    placeholderData: (p) => p,
    // Deliveries on their way change by themselves.
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'pending' || d.status === 'retrying') ? LIVE_REFRESH_MS : false),
  });
  const replay = useMutation({
    mutationFn: (eventId: string) => call((c) => c.POST('/api/webhooks/{id}/replay', { params: { path: { id } }, body: { eventId } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['deliveries', id] }),
  });
  return (
    <section className="card" aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries</h2>
      <div className="toolbar">
        <Select
          label="Show"
          value={status}
          options={[['', 'Every delivery'], ...DELIVERY_STATES]}
          onChange={(e) => {
            setStatus(e.target.value);
            setPage(1);
          }}
        />
      </div>
      {replay.data ? <Notice kind="success">Replayed: {replay.data.replayed} delivery on its way.</Notice> : null}
      <ErrorNotice error={replay.error} />
      <QueryView query={deliveries} what="deliveries">
        {(r) =>
          r.data.length === 0 ? (
            <p className="hint">No deliveries{status ? ' in this state' : ' yet: send a test event'}.</p>
          ) : (
            <>
              <DataTable
                caption="Deliveries"
                rows={r.data}
                rowKey={(d) => d._id}
                columns={[
                  { header: 'When', cell: (d) => formatDate(d.createdAt) },
                  { header: 'Event', cell: (d) => <><code>{d.eventType}</code><span className="cell-note">{d.eventId}</span></> },
                  { header: 'Status', cell: (d) => <span className={`badge badge-delivery-${d.status}`}>{d.status}</span> },
                  { header: 'Attempts', className: 'num', cell: (d) => d.attempts.length },
                  { header: 'Last answer', cell: (d) => <>{lastAttempt(d)}{d.attempts.at(-1)?.responseExcerpt ? <span className="cell-note clip">{d.attempts.at(-1)?.responseExcerpt}</span> : null}</> },
                  {
                    header: 'Actions',
                    hideHeader: true,
                    className: 'actions',
                    cell: (d) => (
                      <Button busy={replay.isPending && replay.variables === d.eventId} onClick={() => replay.mutate(d.eventId)} aria-label={`Replay ${d.eventType} ${d.eventId}`}>
                        Replay
                      </Button>
                    ),
                  },
                ]}
              />
              <Pager page={r.page} limit={r.limit} total={r.total} onPage={setPage} what="Deliveries" />
            </>
          )
        }
      </QueryView>
    </section>
  );
}

function Events({ endpoint }: { endpoint: Endpoint }) {
  const queries = useQueryClient();
  const [chosen, setChosen] = useState<Set<string>>(new Set(endpoint.eventTypes.length === EVENT_TYPES.length ? [] : endpoint.eventTypes));
  const save = useMutation({
    mutationFn: () =>
      call((c) => c.PATCH('/api/webhooks/{id}', { params: { path: { id: endpoint._id } }, body: { eventTypes: chosen.size ? EVENT_TYPES.filter((t) => chosen.has(t)) : [...EVENT_TYPES] } })),
    onSuccess: (next) => queries.setQueryData(['webhook', endpoint._id], next),
  });
  return (
    <section className="card" aria-labelledby="events-heading">
      <h2 id="events-heading">Events sent</h2>
      <EventChoice chosen={chosen} onChange={setChosen} />
      <ErrorNotice error={save.error} />
      <div className="form-actions">
        <Button onClick={() => save.mutate()} busy={save.isPending}>
          Save events
        </Button>
        {save.isSuccess ? <span role="status">Saved.</span> : null}
      </div>
    </section>
  );
}

export function WebhookPage() {
  const { id = '' } = useParams();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const endpoint = useQuery({ queryKey: ['webhook', id], queryFn: () => call((c) => c.GET('/api/webhooks/{id}', { params: { path: { id } } })) });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => call((c) => c.PATCH('/api/webhooks/{id}', { params: { path: { id } }, body: { enabled } })),
    onSuccess: (next) => {
      queries.setQueryData(['webhook', id], next);
      void queries.invalidateQueries({ queryKey: ['webhooks'] });
    },
  });
  const test = useMutation({
    mutationFn: () => call((c) => c.POST('/api/webhooks/{id}/test', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['deliveries', id] }),
  });
  const rotate = useMutation({ mutationFn: () => call((c) => c.POST('/api/webhooks/{id}/rotate-secret', { params: { path: { id } } })) });
  const remove = useMutation({
    mutationFn: () => call((c) => c.DELETE('/api/webhooks/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['webhooks'] });
      navigate('/webhooks');
    },
  });
  return (
    <>
      <p className="breadcrumb">
        <Link to="/webhooks">← Webhooks</Link>
      </p>
      <QueryView query={endpoint} what="the endpoint">
        {(e) => (
          <>
            <PageHeader
              title={e.description || 'Webhook endpoint'}
              description={
                <>
                  <code>{e.url}</code> <EndpointStatus e={e} />
                </>
              }
              actions={
                <>
                  <Button onClick={() => test.mutate()} busy={test.isPending}>
                    Send test event
                  </Button>
                  <Button onClick={() => rotate.mutate()} busy={rotate.isPending}>
                    Rotate secret
                  </Button>
                  <Button onClick={() => toggle.mutate(e.status !== 'enabled')} busy={toggle.isPending}>
                    {e.status === 'enabled' ? 'Disable' : 'Enable'}
                  </Button>
                  <Button variant="danger" onClick={() => setDeleting(true)}>
                    Delete
                  </Button>
                </>
              }
            />
            <ErrorNotice error={test.error ?? rotate.error ?? toggle.error} />
            {test.data ? <Notice kind="success">A test.ping event is on its way ({test.data.eventId}).</Notice> : null}
            {rotate.data ? <SecretOnce secret={rotate.data.secret} note={`The old secret keeps signing too until ${formatDate(rotate.data.previousSecretExpiresAt)}, so receivers can switch over.`} /> : null}
            <Deliveries id={id} />
            <Events endpoint={e} key={e.updatedAt} />
            <ConfirmDialog
              open={deleting}
              title="Delete this endpoint?"
              confirm="Delete endpoint"
              busy={remove.isPending}
              error={remove.error}
              body={<p>No more events are sent to {e.url}; its delivery log goes with it.</p>}
              onConfirm={() => remove.mutate()}
              onClose={() => setDeleting(false)}
            />
          </>
        )}
      </QueryView>
    </>
  );
}
