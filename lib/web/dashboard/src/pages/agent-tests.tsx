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
type ScenarioResult = Run['scenarios'][number];
type Status = Run['status'] | ScenarioResult['status'];
const LABEL: Record<Status, string> = { queued: 'Queued', running: 'Running', pending: 'Pending', passed: 'Passed', failed: 'Failed', error: 'Error' };
const unfinished = (s: Status) => s === 'queued' || s === 'running';

function RunStatus({ status }: { status: Status }) {
  return <span className={`badge badge-status-${status}`}>{LABEL[status]}</span>;
}

/** The run's change since the previous run of its suite, from each scenario's `previous`: what the list shows. */
function changeOf(run: Pick<Run, 'status' | 'previousRunId' | 'scenarios'>): string {
  if (unfinished(run.status)) return '—';
  if (!run.previousRunId) return 'first run';
  const worse = run.scenarios.filter((s) => s.previous === 'passed' && s.status !== 'passed').length;
  const better = run.scenarios.filter((s) => s.previous !== undefined && s.previous !== 'passed' && s.status === 'passed').length;
  const parts = [worse ? `${worse} newly failing` : '', better ? `${better} fixed` : ''].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no change';
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
    <section className="card" aria-labelledby="start-run-heading">
      <h2 id="start-run-heading">Run a suite</h2>
      <form className="inline-form" onSubmit={submit}>
        <Select label="Agent" value={agentId} onChange={(e) => setAgentId(e.target.value)} options={(agents.data?.data ?? []).map((a) => [a._id, a.name] as const)} />
        <TextField label="Suite" value={suite} onChange={(e) => setSuite(e.target.value)} required />
        <TextField label="Version (empty: the draft)" inputMode="numeric" value={version} onChange={(e) => setVersion(e.target.value.replace(/\D/g, ''))} />
        <Button variant="primary" type="submit" busy={start.isPending}>
          Run
        </Button>
      </form>
      {start.error ? <ErrorNotice error={start.error} /> : null}
    </section>
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
      <PageHeader title="Agent tests" description="Simulated callers (a script, or a model playing a persona) play each scenario of a suite against an agent; every check is graded with its evidence." />
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
                  { header: 'Since the previous run', cell: (r) => changeOf(r) },
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

/** The previous run's verdicts, by scenario and check label: what the run page compares each check with. */
function verdictsOf(previous: Run | undefined): Map<string, Map<string, boolean>> {
  return new Map((previous?.scenarios ?? []).map((s) => [s.scenarioId, new Map(s.checks.map((c) => [c.label, c.passed]))]));
}

const verdict = (passed: boolean) => <span className={`badge badge-status-${passed ? 'passed' : 'failed'}`}>{passed ? 'Passed' : 'Failed'}</span>;

/** What changed since the previous run of the suite: the scenarios whose status moved, and how many stayed. */
function SinceLastRun({ run, previous }: { run: Run; previous: Run | undefined }) {
  if (unfinished(run.status) || run.suite === null) return null;
  const moved = run.scenarios.filter((s) => s.previous !== undefined && s.previous !== s.status);
  const same = run.scenarios.filter((s) => s.previous !== undefined && s.previous === s.status).length;
  const added = run.scenarios.filter((s) => s.previous === undefined).length;
  return (
    <section className="card" aria-labelledby="since-heading">
      <h2 id="since-heading">Since the previous run</h2>
      {!run.previousRunId ? (
        <p>The first finished run of the suite {run.suite} against this agent: nothing to compare with yet.</p>
      ) : (
        <>
          <p>
            Compared with <Link to={`/agent-tests/${run.previousRunId}`}>the previous run</Link>
            {previous ? ` of ${formatDate(previous.createdAt)} (${previous.agentVersion === null ? 'draft' : `version ${previous.agentVersion}`}, ${previous.passed} passed, ${previous.failed} failed)` : ''}:{' '}
            {moved.length === 0 ? 'no scenario changed.' : `${moved.length} ${moved.length === 1 ? 'scenario' : 'scenarios'} changed.`}
            {same ? ` ${same} the same.` : ''}
            {added ? ` ${added} new.` : ''}
          </p>
          {moved.length > 0 ? (
            <ul className="test-changes">
              {moved.map((s) => (
                <li key={s.scenarioId}>
                  <a href={`#scenario-${s.scenarioId}`}>{s.name}</a>: was {LABEL[s.previous!].toLowerCase()}, now <RunStatus status={s.status} />
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </section>
  );
}

/** Who played the caller: a model persona's model, lines and cost (a script shows nothing). */
function PersonaNote({ persona }: { persona: ScenarioResult['persona'] }) {
  if (!persona) return null;
  return (
    <p className="cell-note">
      Caller played by {persona.provider} {persona.model}: {persona.lines} {persona.lines === 1 ? 'line' : 'lines'} written, {persona.inputTokens} + {persona.outputTokens} tokens, {formatCredits(persona.cost)} credits
    </p>
  );
}

/** One scenario's card: its verdicts with their evidence, each beside the previous run's, and its figures. */
function ScenarioCard({ s, before }: { s: ScenarioResult; before: Map<string, boolean> | undefined }) {
  return (
    <section className="card" aria-labelledby={`scenario-${s.scenarioId}`}>
      <h2 id={`scenario-${s.scenarioId}`}>
        {s.name} <RunStatus status={s.status} />
        {s.previous && s.previous !== s.status ? <span className="cell-note inline"> was {LABEL[s.previous].toLowerCase()}</span> : null}
      </h2>
      {s.error ? <p className="test-error">Error: {s.error}</p> : null}
      <PersonaNote persona={s.persona} />
      {s.checks.length > 0 ? (
        <DataTable
          caption={`Checks of ${s.name}`}
          rows={s.checks}
          rowKey={(c) => c.label}
          columns={[
            { header: 'Check', cell: (c) => c.label },
            { header: 'Verdict', cell: (c) => verdict(c.passed), className: 'test-verdict' },
            ...(before ? [{ header: 'Previous run', cell: (c: ScenarioResult['checks'][number]) => (before.has(c.label) ? verdict(before.get(c.label)!) : '—'), className: 'test-verdict' }] : []),
            { header: 'Evidence', cell: (c) => c.evidence, className: 'test-evidence' },
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
  );
}

/** One run: each scenario's verdicts with their evidence, its latency and cost, and what changed since the suite's previous run. */
export function AgentTestRunPage() {
  const { id = '' } = useParams();
  const run = useQuery({
    queryKey: ['test-run', id],
    queryFn: () => call((c) => c.GET('/api/agent-tests/runs/{id}', { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data && unfinished(q.state.data.status) ? LIVE_REFRESH_MS : false),
  });
  const previousId = run.data?.previousRunId;
  const previous = useQuery({
    queryKey: ['test-run', previousId],
    queryFn: () => call((c) => c.GET('/api/agent-tests/runs/{id}', { params: { path: { id: previousId! } } })),
    enabled: previousId !== undefined,
  });
  const before = verdictsOf(previous.data);
  return (
    <QueryView query={run} what="the test run">
      {(r) => (
        <>
          <PageHeader
            title={`Test run: ${r.suite ?? r.scenarios[0]?.name ?? r._id}`}
            description={
              <>
                <RunStatus status={r.status} /> {r.passed} passed, {r.failed} failed · {formatCredits(r.cost)} credits · {r.agentVersion === null ? 'draft' : `version ${r.agentVersion}`} · {formatDate(r.createdAt)}
              </>
            }
          />
          <SinceLastRun run={r} previous={previous.data} />
          {r.scenarios.map((s) => (
            <ScenarioCard key={s.scenarioId} s={s} before={previous.data ? before.get(s.scenarioId) : undefined} />
          ))}
        </>
      )}
    </QueryView>
  );
}
