import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { ApiError, type Schemas } from '../api.js';
import { chosen } from '../catalog.js';
import { LatencyWaterfall, STAGES, type TurnLatency } from '../charts.js';
import { call } from '../session.js';
import { LIVE_REFRESH_MS, liveState, useCall, useLiveCalls } from '../live.js';
import { CallData } from './call-data.js';
import { CallerWaits } from './caller-wait.js';
import { CallFailure, CallTimeline } from './call-timeline.js';
import { LiveCalls } from './history-live.js';
import { StandInsNotice } from '../stand-ins.js';
import { Button, DataTable, Empty, ErrorNotice, Loading, PageHeader, Pager, QueryView, Select, TextField, formatCredits, formatDate, formatDuration, useDebounced } from '../ui.js';

type HistoryRecord = Schemas['HistoryRecord'];

/** Plain words for each end reason (docs/api.md, "History"). */
const END_REASONS: Record<HistoryRecord['callEndReason'], string> = {
  customer_hangup: 'Caller hung up',
  agent_hangup: 'Agent ended the call',
  transferred: 'Transferred',
  max_duration: 'Reached the longest call',
  silence_timeout: 'Caller went silent',
  voicemail: 'Voicemail',
  busy: 'Busy',
  no_answer: 'No answer',
  failed: 'Failed',
  canceled: 'Canceled',
  link_expired: 'Meeting link expired',
  not_joined: 'Not joined yet',
  do_not_call: 'Not placed: on the do-not-call list',
  tts_voice_not_found: 'Failed: voice not found',
  tts_auth_failed: 'Failed: voice vendor refused the key',
  tts_unavailable: 'Failed: voice vendor unavailable',
  stt_auth_failed: 'Failed: speech recognition refused the key',
  stt_unavailable: 'Failed: speech recognition unavailable',
  llm_auth_failed: 'Failed: model vendor refused the key',
  llm_rate_limited: 'Failed: model vendor rate limit',
  llm_unavailable: 'Failed: model vendor unavailable',
  telephony_failed: 'Failed: telephony provider',
  ended_by_api: 'Ended through the API',
  error: 'Error',
};
export const endReason = (r: HistoryRecord['callEndReason']) => END_REASONS[r] ?? r;
const TYPES = [['voice', 'Voice'], ['video', 'Video'], ['chat', 'Chat']] as const satisfies readonly (readonly [HistoryRecord['agentType'], string])[];
const OUTCOMES = [['true', 'Successful'], ['false', 'Not successful']] as const satisfies readonly (readonly ['true' | 'false', string])[];

export function HistoryPage() {
  const [filters, setFilters] = useState({ search: '', agentType: '', startDate: '', endDate: '', success: '' });
  const [page, setPage] = useState(1);
  const search = useDebounced(filters.search.trim());
  const params = {
    search: search || undefined,
    agentType: chosen(TYPES, filters.agentType),
    startDate: filters.startDate || undefined,
    endDate: filters.endDate || undefined,
    success: chosen(OUTCOMES, filters.success),
    page,
    limit: 20,
  };
  const live = useLiveCalls();
  const anyLive = (live.data?.length ?? 0) > 0;
  const history = useQuery({
    queryKey: ['history', params],
    queryFn: () => call((c) => c.GET('/api/history', { params: { query: params } })),
    placeholderData: (p) => p,
    // Calls that are live now land here when they end.
    refetchInterval: anyLive ? LIVE_REFRESH_MS : false,
  });
  const agents = useQuery({ queryKey: ['agents', 'options'], queryFn: () => call((c) => c.GET('/api/agents', { params: { query: { limit: 100 } } })) });
  const agentNames = new Map((agents.data?.data ?? []).map((a) => [a._id, a.name]));
  const set = (key: keyof typeof filters) => (e: { target: { value: string } }) => {
    setFilters({ ...filters, [key]: e.target.value });
    setPage(1);
  };
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <PageHeader
        title="History"
        description="Every call, with its transcript, recording and cost."
        actions={
          <Link className="btn btn-primary" to="/calls/new">
            Place a call
          </Link>
        }
      />
      <StandInsNotice />
      <LiveCalls agents={agentNames} />
      <form className="toolbar filters" role="search" aria-label="Filter calls" onSubmit={(e) => e.preventDefault()}>
        <TextField label="Search" type="search" placeholder="Name or number" value={filters.search} onChange={set('search')} />
        <Select label="Type" value={filters.agentType} options={[['', 'All types'], ...TYPES]} onChange={set('agentType')} />
        <TextField label="From" type="date" value={filters.startDate} onChange={set('startDate')} />
        <TextField label="To" type="date" value={filters.endDate} onChange={set('endDate')} />
        <Select label="Outcome" value={filters.success} options={[['', 'Any outcome'], ...OUTCOMES]} onChange={set('success')} />
        {filtered ? (
          <Button
            variant="ghost"
            onClick={() => {
              setFilters({ search: '', agentType: '', startDate: '', endDate: '', success: '' });
              setPage(1);
            }}
          >
            Clear filters
          </Button>
        ) : null}
      </form>
      <QueryView query={history} what="calls">
        {(result) =>
          result.data.length === 0 ? (
            <Empty title={filtered ? 'No calls match these filters' : 'No calls yet'}>{filtered ? null : <p>Calls appear here when they end, and above while they are in progress.</p>}</Empty>
          ) : (
            <>
              <DataTable
                caption="Calls"
                rows={result.data}
                rowKey={(h) => h._id}
                columns={[
                  { header: 'When', cell: (h) => <Link to={`/history/${h._id}`}>{formatDate(h.createdAt)}</Link> },
                  { header: 'Who', cell: (h) => <>{h.fullName || 'Unknown'}<span className="cell-note">{h.mobileNumber}</span></> },
                  { header: 'Type', className: 'capitalize', cell: (h) => h.agentType },
                  { header: 'Duration', cell: (h) => formatDuration(h.callDuration) },
                  { header: 'Ended', cell: (h) => endReason(h.callEndReason) },
                  { header: 'Cost', className: 'num', cell: (h) => formatCredits(h.callCost) },
                ]}
              />
              <Pager page={result.page} limit={result.limit} total={result.total} onPage={setPage} what="Calls" />
            </>
          )
        }
      </QueryView>
    </>
  );
}

/** `agent: …` / `user: …` lines as a conversation. */
function Transcript({ text }: { text: string }) {
  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const m = /^(agent|user):\s?(.*)$/.exec(line);
      return m ? { who: m[1] as 'agent' | 'user', text: m[2]! } : { who: 'user' as const, text: line };
    });
  if (lines.length === 0) return <Empty title="Nothing was said on this call" />;
  return (
    <ol className="transcript">
      {lines.map((l, i) => (
        <li key={i} className={`turn turn-${l.who}`}>
          <span className="turn-who">{l.who === 'agent' ? 'Agent' : 'Caller'}</span>
          <p>{l.text}</p>
        </li>
      ))}
    </ol>
  );
}

/** The recording through a fresh presigned URL (valid 15 minutes), asked for only when the page opens. */
function Recording({ callId }: { callId: string }) {
  const url = useQuery({
    queryKey: ['recording', callId],
    queryFn: () => call((c) => c.GET('/api/history/{id}/recording-url', { params: { path: { id: callId } } })),
    staleTime: 10 * 60_000,
  });
  if (url.isPending) return <Loading what="the recording" />;
  if (url.isError) return <ErrorNotice error={url.error} />;
  return (
    <>
      <audio controls preload="metadata" src={url.data.url} aria-label="Call recording">
        <a href={url.data.url}>Download the recording</a>
      </audio>
      <p className="hint">Stereo: the caller on the left, the agent on the right.</p>
    </>
  );
}

function LatencyTable({ turns }: { turns: readonly TurnLatency[] }) {
  const cell = (n: number | null) => (n === null ? '—' : `${Math.round(n)}`);
  return (
    <details>
      <summary>Each stage’s own time per turn (ms)</summary>
      <DataTable
        caption="Latency per turn in milliseconds"
        scroll
        rows={turns.map((t, i) => ({ ...t, turn: i + 1 }))}
        rowKey={(t) => String(t.turn)}
        columns={[
          { header: 'Turn', cell: (t) => t.turn },
          ...STAGES.map((s) => ({ header: s.label, className: 'num', cell: (t: TurnLatency) => cell(t[s.key]) })),
        ]}
      />
    </details>
  );
}

export function CallPage() {
  const { id = '' } = useParams();
  // The call (`GET /api/calls/{id}`) says whether it is live and, once it ended, its record's id. A record
  // whose call is not known (404) is still read: a chat's or an older call's history stands on its own.
  const live = useCall(id);
  const unknown = live.error instanceof ApiError && live.error.status === 404;
  const historyId = live.data?.historyId ?? (unknown ? id : null);
  const record = useQuery({
    queryKey: ['call', historyId],
    queryFn: () => call((c) => c.GET('/api/history/{id}', { params: { path: { id: historyId ?? '' } } })),
    enabled: historyId !== null,
  });
  const running = live.data && live.data.historyId === null ? live.data : null;
  return (
    <>
      <p className="breadcrumb">
        <Link to="/history">← History</Link>
      </p>
      {live.isPending ? (
        <Loading what="the call" />
      ) : live.isError && !unknown ? (
        <ErrorNotice error={live.error} />
      ) : running && running.endedAt === null ? (
        <>
          <PageHeader title="Call in progress" description={`${formatDate(running.createdAt)} · ${running.to}`} />
          <div className="stats">
            <div className="stat">
              <span className="stat-label">State</span>
              <span className="stat-value stat-text" data-testid="live-state">
                {liveState(running.state)}
              </span>
              {running.answeredAt ? <span className="stat-note">Answered {formatDate(running.answeredAt)}</span> : null}
            </div>
          </div>
          <p className="hint" role="status">
            The transcript, recording and cost appear here when the call ends; this page refreshes itself.
          </p>
        </>
      ) : running ? (
        <Loading what="the call’s record" />
      ) : (
      <QueryView query={record} what="the call">
        {(r) => (
          <>
            <PageHeader title={r.fullName || 'Call'} description={`${formatDate(r.createdAt)} · ${r.mobileNumber}`} />
            <StandInsNotice />
            <div className="stats">
              <div className="stat">
                <span className="stat-label">Duration</span>
                <span className="stat-value">{formatDuration(r.callDuration)}</span>
              </div>
              <div className="stat">
                <span className="stat-label">Cost</span>
                <span className="stat-value">{formatCredits(r.callCost)} credits</span>
              </div>
              <div className="stat">
                <span className="stat-label">Ended</span>
                <span className="stat-value stat-text">{endReason(r.callEndReason)}</span>
                {r.callStatus ? <span className="stat-note">Telephony status: {r.callStatus}</span> : null}
              </div>
              {r.transfer ? (
                <div className="stat">
                  <span className="stat-label">Transfer</span>
                  <span className="stat-value stat-text">{r.transfer.outcome}</span>
                  <span className="stat-note">
                    {r.transfer.mode} to {r.transfer.destination}
                  </span>
                </div>
              ) : null}
            </div>
            <CallFailure reason={r.callEndReason} error={r.callError} />
            <div className="two-columns">
              <section className="card" aria-labelledby="transcript-heading">
                <h2 id="transcript-heading">Transcript</h2>
                <Transcript text={r.callTranscript} />
              </section>
              <div className="stack">
                <section className="card" aria-labelledby="summary-heading">
                  <h2 id="summary-heading">Summary</h2>
                  <p>{r.callSummary || 'No summary for this call.'}</p>
                </section>
                <section className="card" aria-labelledby="recording-heading">
                  <h2 id="recording-heading">Recording</h2>
                  {r.callRecordingUrl ? <Recording callId={r._id} /> : <p>This call was not recorded. Turn on “Record calls” in the agent’s settings.</p>}
                </section>
              </div>
            </div>
            <CallData record={r} />
            {r.segments && r.segments.length > 0 ? (
              <section className="card" aria-labelledby="segments-heading">
                <h2 id="segments-heading">Agents in this call</h2>
                <DataTable
                  caption="Which agent ran which part of the call, and why each handoff happened (docs/handoffs.md)"
                  rows={r.segments.map((s, i) => ({ ...s, key: i }))}
                  rowKey={(s) => String(s.key)}
                  columns={[
                    { header: 'Agent', cell: (s) => s.agentName + (s.agentVersion !== undefined ? ` (v${s.agentVersion})` : '') },
                    { header: 'From', cell: (s) => `${s.startSecond.toFixed(1)} s` },
                    { header: 'To', cell: (s) => `${s.endSecond.toFixed(1)} s` },
                    { header: 'Why', className: 'clip', cell: (s) => (s.handoff ? `${s.handoff.reason} (${s.handoff.context})` : 'the call’s agent') },
                    { header: 'Gathered', className: 'clip', cell: (s) => (s.handoff && Object.keys(s.handoff.variables).length > 0 ? JSON.stringify(s.handoff.variables) : '—') },
                  ]}
                />
              </section>
            ) : null}
            {r.knowledge && r.knowledge.length > 0 ? (
              <section className="card" aria-labelledby="knowledge-heading">
                <h2 id="knowledge-heading">Knowledge used</h2>
                <DataTable
                  caption="Knowledge-base chunks given to the model"
                  rows={r.knowledge.flatMap((use, i) => use.chunks.map((c, j) => ({ ...c, turn: use.turn, mode: use.mode, query: use.query, key: `${i}-${j}` })))}
                  rowKey={(c) => c.key}
                  columns={[
                    { header: 'Turn', cell: (c) => c.turn + 1 },
                    { header: 'Query', className: 'clip', cell: (c) => c.query },
                    { header: 'Document', className: 'clip', cell: (c) => c.documentName },
                    { header: 'Section', className: 'clip', cell: (c) => [c.section, c.page !== undefined ? `page ${c.page}` : undefined].filter(Boolean).join(', ') || '—' },
                    { header: 'Score', cell: (c) => c.score.toFixed(3) },
                  ]}
                />
              </section>
            ) : null}
            <section className="card" aria-labelledby="latency-heading">
              <h2 id="latency-heading">Response time per turn</h2>
              {r.turnLatencies && r.turnLatencies.length > 0 ? (
                r.turnLatencies.some((t) => t.callerWait !== undefined) ? (
                  <>
                    <CallerWaits waits={r.turnLatencies.map((t) => t.callerWait ?? null)} summary={r.latencySummary} />
                    <LatencyTable turns={r.turnLatencies} />
                  </>
                ) : (
                  // A record from before the caller's wait was kept: its stage figures only.
                  <>
                    <p className="hint">From the caller’s last word to the agent’s first sound, by stage.</p>
                    <LatencyWaterfall turns={r.turnLatencies} />
                    <LatencyTable turns={r.turnLatencies} />
                  </>
                )
              ) : (
                <p>No turn figures: the caller never spoke after a greeting, or the call did not connect.</p>
              )}
            </section>
            <CallTimeline callId={r._id} />
          </>
        )}
      </QueryView>
      )}
    </>
  );
}
