import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { LIVE_STATUSES, STATUS_LABEL } from '../campaign-defaults.js';
import { LIVE_REFRESH_MS } from '../live.js';
import { useAgentOptions } from '../options.js';
import { call } from '../session.js';
import { Button, DataTable, Dialog, Empty, PageHeader, Pager, QueryView, formatDate } from '../ui.js';
import { CampaignForm } from './campaign-form.js';

/** Campaigns: an agent calling a list of contacts within their hours, with retries (docs/campaigns.md). */

export function StatusBadge({ status, reason }: { status: keyof typeof STATUS_LABEL; reason?: string | undefined }) {
  return (
    <>
      <span className={`badge badge-status-${status}`}>{STATUS_LABEL[status] ?? status}</span>
      {reason ? <span className="cell-note">{reason.replaceAll('_', ' ')}</span> : null}
    </>
  );
}

/** A row's progress: the campaign's own GET (the list carries no counts); refreshed while it runs. */
function Progress({ id }: { id: string }) {
  const detail = useQuery({
    queryKey: ['campaign', id],
    queryFn: () => call((c) => c.GET('/api/campaigns/{id}', { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data && LIVE_STATUSES.includes(q.state.data.progress.status) ? LIVE_REFRESH_MS : false),
  });
  if (!detail.data) return <span className="cell-note">…</span>;
  const c = detail.data.progress.contacts;
  const done = c.finished + c.skipped;
  return (
    <span className="progress-cell">
      <progress max={Math.max(1, c.total)} value={done} aria-label={`${detail.data.name}: ${done} of ${c.total} contacts done`} />
      <span>
        {done} / {c.total}
        {c.inFlight ? ` · ${c.inFlight} on the phone` : ''}
      </span>
    </span>
  );
}

export function CampaignsPage() {
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const campaigns = useQuery({ queryKey: ['campaigns', page], queryFn: () => call((c) => c.GET('/api/campaigns', { params: { query: { page, limit: 20 } } })), placeholderData: (p) => p });
  const agents = useAgentOptions();
  const agentName = (id: string) => agents.data?.data.find((a) => a._id === id)?.name ?? id;
  return (
    <>
      <PageHeader
        title="Campaigns"
        description="An agent calls a list of contacts within their local hours, retrying missed calls."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            New campaign
          </Button>
        }
      />
      <QueryView query={campaigns} what="campaigns">
        {(result) =>
          result.data.length === 0 ? (
            <Empty title="No campaigns yet">
              <p>Create one to have an agent call your contacts, for example to confirm appointments.</p>
            </Empty>
          ) : (
            <>
              <DataTable
                caption="Campaigns"
                rows={result.data}
                rowKey={(c) => c._id}
                columns={[
                  { header: 'Name', cell: (c) => <Link to={`/campaigns/${c._id}`}>{c.name}</Link> },
                  { header: 'Agent', cell: (c) => agentName(c.agentId) },
                  { header: 'Status', cell: (c) => <StatusBadge status={c.status} reason={c.statusReason} /> },
                  { header: 'Progress', cell: (c) => <Progress id={c._id} /> },
                  { header: 'Created', cell: (c) => formatDate(c.createdAt) },
                ]}
              />
              <Pager page={result.page} limit={result.limit} total={result.total} onPage={setPage} what="Campaigns" />
            </>
          )
        }
      </QueryView>
      <Dialog open={creating} title="New campaign" onClose={() => setCreating(false)}>
        <CampaignForm onDone={() => setCreating(false)} />
      </Dialog>
    </>
  );
}
