import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { ApiError } from '../api.js';
import { useListen } from '../listen.js';
import { liveState, useLiveCalls, type LiveCall } from '../live.js';
import { call } from '../session.js';
import { endReason } from './history.js';
import { Button, DataTable, Empty, ErrorNotice, Loading, Notice, PageHeader, QueryView, Select, TextField, formatDate } from '../ui.js';

/**
 * Live: the calls in progress (`GET /api/calls`), and one call as it happens (docs/live-calls.md): its
 * transcript so far (`GET /api/calls/{id}`, asked every second), listening in the browser (the listen
 * socket through Web Audio, with live captions), and the End and Say controls.
 */

/** The session's states in plain words (the greeting is the agent speaking). */
const AGENT_STATES: Record<string, string> = {
  connecting: 'Connecting',
  greeting: 'Speaking',
  listening: 'Listening',
  thinking: 'Thinking',
  speaking: 'Speaking',
  transferring: 'Transferring',
  ending: 'Ending',
};
const agentState = (s: string | null | undefined) => (s ? (AGENT_STATES[s] ?? s) : '—');

/** The transcript of a live call is asked for this often: a turn takes a few seconds. */
const TRANSCRIPT_REFRESH_MS = 1_000;

export function LivePage() {
  const live = useLiveCalls();
  return (
    <>
      <PageHeader title="Live" description="Calls in progress: follow one as it happens, listen in, speak through the agent or end it." />
      <QueryView query={live} what="live calls">
        {(rows) =>
          rows.length === 0 ? (
            <Empty title="No calls in progress">This page refreshes itself while calls run; reload it to look again.</Empty>
          ) : (
            <DataTable<LiveCall>
              caption="Calls in progress"
              rows={rows}
              rowKey={(c) => c.id}
              columns={[
                { header: 'Started', cell: (c) => <Link to={`/live/${c.id}`}>{formatDate(c.createdAt)}</Link> },
                { header: 'With', cell: (c) => (c.to ? <code>{c.to}</code> : 'Browser') },
                { header: 'Type', className: 'capitalize', cell: (c) => c.type },
                { header: 'Direction', cell: (c) => c.direction.charAt(0).toUpperCase() + c.direction.slice(1) },
                { header: 'State', cell: (c) => <span className="badge badge-live">{liveState(c.state)}</span> },
              ]}
            />
          )
        }
      </QueryView>
    </>
  );
}

export function LiveCallPage() {
  const { id = '' } = useParams();
  const view = useQuery({
    queryKey: ['live-call', id],
    queryFn: () => call((c) => c.GET('/api/calls/{id}', { params: { path: { id } } })),
    staleTime: 0,
    // Until the call has ended and its record is written: an ended call's record comes a moment later.
    refetchInterval: (q) => (q.state.data && (q.state.data.endedAt === null || q.state.data.historyId === null) ? TRANSCRIPT_REFRESH_MS : false),
  });
  const [listenUrl, setListenUrl] = useState<string>();
  const listen = useMutation({
    mutationFn: () => call((c) => c.POST('/api/calls/{id}/listen', { params: { path: { id } } })),
    onSuccess: (r) => setListenUrl(r.url),
  });
  const listening = useListen(listenUrl);
  const [text, setText] = useState('');
  const [mode, setMode] = useState<'queue' | 'interrupt'>('queue');
  const say = useMutation({
    mutationFn: () => call((c) => c.POST('/api/calls/{id}/say', { params: { path: { id } }, body: { text: text.trim(), mode } })),
    onSuccess: () => setText(''),
  });
  const end = useMutation({ mutationFn: () => call((c) => c.POST('/api/calls/{id}/end', { params: { path: { id } }, body: {} })) });
  const sayError = say.error instanceof ApiError ? say.error : undefined;
  return (
    <>
      <p className="breadcrumb">
        <Link to="/live">← Live</Link>
      </p>
      <QueryView query={view} what="the call">
        {(c) =>
          c.endedAt !== null ? (
            <>
              <PageHeader title="Call ended" description={`${formatDate(c.createdAt)} · ${c.to || 'Browser'}`} />
              <Notice>
                This call has ended{c.endReason ? ` (${endReason(c.endReason)})` : ''}.{' '}
                {c.historyId ? <Link to={`/history/${c.historyId}`}>Open its record</Link> : 'Its record is being written.'}
              </Notice>
            </>
          ) : (
            <>
              <PageHeader
                title="Call in progress"
                description={`${formatDate(c.createdAt)} · ${c.to || 'Browser'}${c.agent ? ` · ${c.agent.name}` : ''}`}
                actions={
                  <Button variant="danger" busy={end.isPending} disabled={end.isSuccess} onClick={() => end.mutate()}>
                    {end.isSuccess ? 'Ending…' : 'End call'}
                  </Button>
                }
              />
              {end.error ? <ErrorNotice error={end.error} /> : null}
              <div className="stats">
                <div className="stat">
                  <span className="stat-label">Call</span>
                  <span className="stat-value stat-text" data-testid="live-state">
                    {liveState(c.state)}
                  </span>
                </div>
                <div className="stat">
                  <span className="stat-label">Agent</span>
                  <span className="stat-value stat-text" data-testid="agent-state">
                    {agentState(listening.agentState ?? c.agentState)}
                  </span>
                </div>
              </div>
              <div className="live-grid">
                <section className="card" aria-labelledby="transcript-heading">
                  <h2 id="transcript-heading">Transcript so far</h2>
                  {c.transcript === null ? (
                    <Loading what="the transcript" />
                  ) : c.transcript.length === 0 ? (
                    <Empty title="Nothing said yet" />
                  ) : (
                    <ol className="transcript" data-testid="live-transcript">
                      {c.transcript.map((l, i) => (
                        <li key={i} className={`turn turn-${l.role}`}>
                          <span className="turn-who">{l.role === 'agent' ? 'Agent' : 'Caller'}</span>
                          <p>{l.text}</p>
                        </li>
                      ))}
                    </ol>
                  )}
                </section>
                <div className="live-side">
                  <section className="card" aria-labelledby="listen-heading">
                    <h2 id="listen-heading">Listen</h2>
                    {listenUrl ? (
                      <p role="status" data-testid="listen-status">
                        {listening.status === 'listening'
                          ? `Listening: caller on the left, agent on the right (${listening.frames[0]} caller and ${listening.frames[1]} agent frames).`
                          : listening.status === 'connecting'
                            ? 'Connecting…'
                            : listening.status === 'ended'
                              ? 'The call ended.'
                              : listening.status === 'failed'
                                ? 'The listen connection failed.'
                                : ''}
                      </p>
                    ) : (
                      <Button busy={listen.isPending} onClick={() => listen.mutate()}>
                        Listen in
                      </Button>
                    )}
                    {listen.error ? <ErrorNotice error={listen.error} /> : null}
                    {listening.captions.length > 0 ? (
                      <ol className="transcript captions" aria-label="Live captions" data-testid="captions">
                        {listening.captions.map((l, i) => (
                          <li key={i} className={`turn turn-${l.role}${l.final ? '' : ' turn-interim'}`}>
                            <span className="turn-who">{l.role === 'agent' ? 'Agent' : 'Caller'}</span>
                            <p>{l.text}</p>
                          </li>
                        ))}
                      </ol>
                    ) : null}
                  </section>
                  <section className="card" aria-labelledby="say-heading">
                    <h2 id="say-heading">Say</h2>
                    <form
                      className="inline-form"
                      onSubmit={(e) => {
                        e.preventDefault();
                        if (text.trim()) say.mutate();
                      }}
                    >
                      <TextField label="Line for the agent to say" value={text} maxLength={1000} onChange={(e) => setText(e.target.value)} error={sayError?.message} />
                      <Select
                        label="When"
                        value={mode}
                        onChange={(e) => setMode(e.target.value as 'queue' | 'interrupt')}
                        options={[
                          ['queue', 'After what it is saying'],
                          ['interrupt', 'Now, interrupting'],
                        ]}
                      />
                      <Button type="submit" variant="primary" busy={say.isPending} disabled={!text.trim()}>
                        Say
                      </Button>
                    </form>
                    {say.isSuccess ? <p role="status">Sent.</p> : null}
                  </section>
                </div>
              </div>
            </>
          )
        }
      </QueryView>
    </>
  );
}
