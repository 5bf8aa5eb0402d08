import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import type { Schemas } from '../api.js';
import { LIVE_REFRESH_MS } from '../live.js';
import { useAgentOptions } from '../options.js';
import { call } from '../session.js';
import { Button, DataTable, Empty, ErrorNotice, PageHeader, Pager, QueryView, Select, TextField, formatCredits, formatDate } from '../ui.js';

/** Agent tests (docs/agent-tests.md): runs of a suite against a draft or a version, and what changed since the last one. */

type Run = Schemas['AgentTestRun'];
type Status = Run['status'] | Run['scenarios'][number]['status'];
const LABEL: Record<Status, string> = { queued: 'Queued', running: 'Running', pending: 'Pending', passed: 'Passed', failed: 'Failed', error: 'Error' };
const unfinished = (s: Status) => s === 'queued' || s === 'running';

function RunStatus({ status }: { status: Status }) {
  return <span className={`badge badge-status-${status}`}>{LABEL[status]}</span>;
}

function StartRun() {
  const agents = useAgentOptions();
  const client = useQueryClient();
  const [agentId, setAgentId] = useState('');
  const [suite, setSuite] = useState('default');
  const [version, setVersion] = useState('');
  const start = useMutation({
    mutationFn: () =>
      call((c) => c.POST('/api/agent-tests/runs', { body: { agentId: agentId || agents.data?.data[0]?._id || '', suite, ...(version ? { version: Number(version) } : {}) } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['test-runs'] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate();
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-labelledby="start-run-heading">
      <h2 id="start-run-heading">Run a suite</h2>
      <Select label="Agent" value={agentId} onChange={(e) => setAgentId(e.target.value)} options={(agents.data?.data ?? []).map((a) => [a._id, a.name] as const)} />
      <TextField label="Suite" value={suite} onChange={(e) => setSuite(e.target.value)} required />
      <TextField label="Version" hint="Empty: the draft" inputMode="numeric" value={version} onChange={(e) => setVersion(e.target.value.replace(/\D/g, ''))} />
      <Button variant="primary" type="submit" busy={start.isPending}>
        Run
      </Button>
      {start.error ? <ErrorNotice error={start.error} /> : null}
    </form>
  );
}

export function AgentTestsPage() {
  const [page, setPage] = useState(1);
  const runs = useQuery({
    queryKey: ['test-runs', page],
    queryFn: () => call((c) => c.GET('/api/agent-tests/runs', { params: { query: { page, limit: 20 } } })),
    placeholderData: (p) => p,
    refetchInterval: (q) => (q.state.data?.data.some((r) => unfinished(r.status)) ? LIVE_REFRESH_MS : false),
  });
  const agents = useAgentOptions();
  const agentName = (id: string) => agents.data?.data.find((a) => a._id === id)?.name ?? id;
  return (
    <>
      <PageHeader title="Agent tests" description="Scripted callers play each scenario of a suite against an agent; every check is graded with its evidence." />
      <StartRun />
      <QueryView query={runs} what="test runs">
        {(result) =>
          result.data.length === 0 ? (
            <Empty title="No test runs yet">
              <p>Create scenarios through the API (POST /api/agent-tests), then run their suite here or from CI with the agent test command.</p>
            </Empty>
          ) : (
            <>
              <DataTable
                caption="Test runs"
                rows={result.data}
                rowKey={(r) => r._id}
                columns={[
                  { header: 'Run', cell: (r) => <Link to={`/agent-tests/${r._id}`}>{r.suite ?? r.scenarios[0]?.name ?? r._id}</Link> },
                  { header: 'Agent', cell: (r) => `${agentName(r.agentId)} · ${r.agentVersion === null ? 'draft' : `v${r.agentVersion}`}` },
                  { header: 'Status', cell: (r) => <RunStatus status={r.status} /> },
                  { header: 'Passed', cell: (r) => `${r.passed} / ${r.scenarios.length}` },
                  { header: 'Cost', cell: (r) => formatCredits(r.cost) },
                  { header: 'Started', cell: (r) => formatDate(r.createdAt) },
                ]}
              />
              <Pager page={result.page} limit={result.limit} total={result.total} onPage={setPage} what="Test runs" />
            </>
          )
        }
      </QueryView>
    </>
  );
}

/** One run: each scenario's verdicts with their evidence, its latency and cost, and how it did last time. */
export function AgentTestRunPage() {
  const { id = '' } = useParams();
  const run = useQuery({
    queryKey: ['test-run', id],
    queryFn: () => call((c) => c.GET('/api/agent-tests/runs/{id}', { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data && unfinished(q.state.data.status) ? LIVE_REFRESH_MS : false),
  });
  return (
    <QueryView query={run} what="the test run">
      {(r) => (
        <>
          <PageHeader
            title={`Test run: ${r.suite ?? r.scenarios[0]?.name ?? r._id}`}
            description={
              <>
                <RunStatus status={r.status} /> {r.passed} passed, {r.failed} failed · {formatCredits(r.cost)} credits · {r.agentVersion === null ? 'draft' : `version ${r.agentVersion}`}
                {r.previousRunId ? (
                  <>
                    {' '}
                    · compared with <Link to={`/agent-tests/${r.previousRunId}`}>the previous run</Link>
                  </>
                ) : null}
              </>
            }
          />
          {r.scenarios.map((s) => (
            <section key={s.scenarioId} className="card" aria-labelledby={`scenario-${s.scenarioId}`}>
              <h2 id={`scenario-${s.scenarioId}`}>
                {s.name} <RunStatus status={s.status} />
                {s.previous && s.previous !== s.status ? <span className="cell-note"> was {LABEL[s.previous].toLowerCase()}</span> : null}
              </h2>
              {s.error ? <p className="cell-note">{s.error}</p> : null}
              {s.checks.length > 0 ? (
                <DataTable
                  caption={`Checks of ${s.name}`}
                  rows={s.checks}
                  rowKey={(c) => c.label}
                  columns={[
                    { header: 'Check', cell: (c) => c.label },
                    { header: 'Verdict', cell: (c) => <span className={`badge badge-status-${c.passed ? 'passed' : 'failed'}`}>{c.passed ? 'Passed' : 'Failed'}</span> },
                    { header: 'Evidence', cell: (c) => c.evidence },
                  ]}
                />
              ) : null}
              <p className="cell-note">
                First reply {s.latency?.firstReplyMs ?? '—'} ms · median {s.latency?.replyMsMedian ?? '—'} ms · {formatCredits(s.cost)} credits
                {s.chatId ? (
                  <>
                    {' '}
                    · <Link to={`/history/${s.chatId}`}>the chat in history</Link>
                  </>
                ) : null}
              </p>
              {s.transcript ? (
                <details>
                  <summary>Transcript</summary>
                  <pre className="test-transcript">{s.transcript}</pre>
                </details>
              ) : null}
            </section>
          ))}
        </>
      )}
    </QueryView>
  );
}
