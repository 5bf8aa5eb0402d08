import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import type { Client, paths } from '../api.js';
import { chosen } from '../catalog.js';
import { ACTIONS, LIVE_STATUSES, OUTCOMES, OUTCOME_LABEL, WEEKDAY_LABEL, type CampaignAction } from '../campaign-defaults.js';
import type { CampaignResult } from '../campaign-types.js';
import { LIVE_REFRESH_MS } from '../live.js';
import { useAgentOptions } from '../options.js';
import { call } from '../session.js';
import { Button, ConfirmDialog, DataTable, ErrorNotice, PageHeader, Pager, QueryView, Select, formatDate } from '../ui.js';
import { StatusBadge } from './campaigns.js';

/** One campaign: its settings, the lifecycle buttons, counts per outcome and each contact's result. */

const ACTION_LABEL: Record<CampaignAction, string> = { start: 'Start', pause: 'Pause', resume: 'Resume', cancel: 'Cancel campaign' };
type ResultState = CampaignResult['state'];
const STATES = [['pending', 'Waiting'], ['dialing', 'On the phone'], ['done', 'Done'], ['skipped', 'Skipped']] as const satisfies readonly (readonly [ResultState, string])[];
const STATE_LABEL: Record<ResultState, string> = Object.fromEntries(STATES) as Record<ResultState, string>;

/** Each lifecycle action's route (one path per action, so each call is typed). */
const ACTION_CALL = {
  start: (c, id) => c.POST('/api/campaigns/{id}/start', { params: { path: { id } } }),
  pause: (c, id) => c.POST('/api/campaigns/{id}/pause', { params: { path: { id } } }),
  resume: (c, id) => c.POST('/api/campaigns/{id}/resume', { params: { path: { id } } }),
  cancel: (c, id) => c.POST('/api/campaigns/{id}/cancel', { params: { path: { id } } }),
} satisfies Record<CampaignAction, (c: Client<paths>, id: string) => Promise<unknown>>;

function Results({ id, live }: { id: string; live: boolean }) {
  const [state, setState] = useState('');
  const [page, setPage] = useState(1);
  const results = useQuery({
    queryKey: ['campaign-results', id, state, page],
    queryFn: () => call((c) => c.GET('/api/campaigns/{id}/results', { params: { path: { id }, query: { state: chosen(STATES, state), page, limit: 20 } } })),
    placeholderData: (p) => p,
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  });
  return (
    <section className="card" aria-labelledby="results-heading">
      <h2 id="results-heading">Contacts</h2>
      <div className="toolbar">
        <Select
          label="Show"
          value={state}
          options={[['', 'Every contact'], ...STATES]}
          onChange={(e) => {
            setState(e.target.value);
            setPage(1);
          }}
        />
      </div>
      <QueryView query={results} what="results">
        {(r) => (
          <>
            <DataTable
              caption="Per-contact results"
              rows={r.data}
              rowKey={(c) => c.contactId}
              columns={[
                { header: 'Contact', cell: (c) => <>{c.contactName}<span className="cell-note">{c.phoneNumber}</span></> },
                { header: 'State', cell: (c) => STATE_LABEL[c.state] ?? c.state },
                { header: 'Attempts', className: 'num', cell: (c) => c.attempts },
                {
                  header: 'Outcome',
                  cell: (c) =>
                    c.skipReason ? `Skipped: ${c.skipReason.replaceAll('_', ' ')}${c.missingVariables?.length ? ` (${c.missingVariables.join(', ')})` : ''}` : c.lastOutcome ? OUTCOME_LABEL[c.lastOutcome] : '—',
                },
                { header: 'Next try', cell: (c) => formatDate(c.nextAttemptAt) },
                {
                  header: 'Calls',
                  cell: (c) =>
                    c.callIds.length === 0
                      ? '—'
                      : c.callIds.map((call, i) => (
                          <Link key={call} to={`/history/${call}`} className="call-link">
                            Call {i + 1}
                          </Link>
                        )),
                },
              ]}
            />
            {r.total === 0 ? <p className="hint">No contacts in this state.</p> : null}
            <Pager page={r.page} limit={r.limit} total={r.total} onPage={setPage} what="Results" />
          </>
        )}
      </QueryView>
    </section>
  );
}

export function CampaignPage() {
  const { id = '' } = useParams();
  const queries = useQueryClient();
  const agents = useAgentOptions();
  const [cancelling, setCancelling] = useState(false);
  const campaign = useQuery({
    queryKey: ['campaign', id],
    queryFn: () => call((c) => c.GET('/api/campaigns/{id}', { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data && LIVE_STATUSES.includes(q.state.data.progress.status) ? LIVE_REFRESH_MS : false),
  });
  const act = useMutation({
    mutationFn: (action: CampaignAction) => call((c) => ACTION_CALL[action](c, id)),
    onSuccess: (next) => {
      setCancelling(false);
      queries.setQueryData(['campaign', id], next);
      void queries.invalidateQueries({ queryKey: ['campaigns'] });
      void queries.invalidateQueries({ queryKey: ['campaign-results', id] });
    },
  });
  return (
    <>
      <p className="breadcrumb">
        <Link to="/campaigns">← Campaigns</Link>
      </p>
      <QueryView query={campaign} what="the campaign">
        {(c) => {
          const status = c.progress.status;
          const allowed = (Object.keys(ACTIONS) as CampaignAction[]).filter((a) => (ACTIONS[a] as readonly string[]).includes(status));
          const p = c.progress.contacts;
          return (
            <>
              <PageHeader
                title={c.name}
                description={<StatusBadge status={status} reason={c.progress.statusReason} />}
                actions={allowed.map((a) => (
                  <Button key={a} variant={a === 'cancel' ? 'danger' : a === 'start' || a === 'resume' ? 'primary' : 'secondary'} busy={act.isPending && act.variables === a} onClick={() => (a === 'cancel' ? setCancelling(true) : act.mutate(a))}>
                    {ACTION_LABEL[a]}
                  </Button>
                ))}
              />
              {!cancelling ? <ErrorNotice error={act.error} /> : null}
              <div className="stats">
                {(
                  [
                    ['Contacts', p.total],
                    ['Waiting', p.pending],
                    ['On the phone', p.inFlight],
                    ['Finished', p.finished],
                    ['Skipped', p.skipped],
                  ] as const
                ).map(([label, n]) => (
                  <div className="stat" key={label}>
                    <span className="stat-label">{label}</span>
                    <span className="stat-value">{n}</span>
                  </div>
                ))}
              </div>
              <div className="two-columns">
                <section className="card" aria-labelledby="outcomes-heading">
                  <h2 id="outcomes-heading">Outcomes</h2>
                  <DataTable
                    caption="Counts per outcome"
                    rows={[...OUTCOMES]}
                    rowKey={(o) => o}
                    columns={[
                      { header: 'Outcome', cell: (o) => OUTCOME_LABEL[o] },
                      { header: 'Contacts (last outcome)', className: 'num', cell: (o) => c.progress.outcomes[o] },
                      { header: 'Dials', className: 'num', cell: (o) => c.progress.attempts[o] },
                    ]}
                  />
                </section>
                <section className="card" aria-labelledby="settings-heading">
                  <h2 id="settings-heading">Settings</h2>
                  <dl className="facts">
                    <dt>Agent</dt>
                    <dd>{agents.data?.data.find((a) => a._id === c.agentId)?.name ?? c.agentId}</dd>
                    <dt>Calling window</dt>
                    <dd>
                      {c.callingWindow.start}–{c.callingWindow.end}, {c.callingWindow.days.map((d) => WEEKDAY_LABEL[d].slice(0, 3)).join(' ')}
                      {c.callingWindow.timeZone ? ` (${c.callingWindow.timeZone})` : " (each contact's time zone)"}
                    </dd>
                    <dt>Calls at once</dt>
                    <dd>{c.concurrency}</dd>
                    <dt>Starts</dt>
                    <dd>{c.schedule.startAt ? formatDate(c.schedule.startAt) : 'When started'}</dd>
                    <dt>Next tries</dt>
                    <dd>{c.progress.nextAttempts[0] ? formatDate(c.progress.nextAttempts[0].at) : '—'}</dd>
                  </dl>
                </section>
              </div>
              <Results id={id} live={LIVE_STATUSES.includes(status)} />
              <ConfirmDialog
                open={cancelling}
                title="Cancel this campaign?"
                confirm="Cancel campaign"
                dismiss="Keep running"
                busy={act.isPending}
                error={act.error}
                body={<p>Nobody more is called; calls in progress finish. A cancelled campaign cannot be started again.</p>}
                onConfirm={() => act.mutate('cancel')}
                onClose={() => setCancelling(false)}
              />
            </>
          );
        }}
      </QueryView>
    </>
  );
}
