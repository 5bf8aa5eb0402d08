import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '../api.js';
import { call } from '../session.js';
import { DataTable, QueryView } from '../ui.js';

type CallError = Schemas['CallError'];
type CallEvent = Schemas['CallEvent'];

/** Plain words for the stages a call runs through. */
const STAGE_NAMES: Record<CallError['stage'] | 'realtime', string> = {
  realtime: 'Speech-to-speech model',
  stt: 'Speech recognition',
  tts: 'Voice',
  llm: 'Language model',
  telephony: 'Telephony',
  tool: 'Tool',
};

/** What a user can do about each kind of failure (docs/calls.md, "Why a call failed"). */
const ADVICE: Record<string, string> = {
  tts_voice_not_found: 'The voice no longer exists at the vendor. Pick another voice in the agent’s settings.',
  tts_auth_failed: 'The voice vendor refused the key. Check the workspace’s key under Settings → Provider keys.',
  stt_auth_failed: 'The speech-recognition vendor refused the key. Check the workspace’s key under Settings → Provider keys.',
  llm_auth_failed: 'The model vendor refused the key. Check the workspace’s key under Settings → Provider keys.',
  llm_rate_limited: 'The model vendor is limiting requests on this account. Try again later or raise the account’s limits.',
};

/** Why the call failed: the stage, the vendor, its code and message, and when. Nothing when it did not. */
export function CallFailure({ reason, error }: { reason: string; error: CallError | undefined }) {
  if (!error) return null;
  return (
    <section className="card notice-error" aria-labelledby="call-error-heading" data-testid="call-error">
      <h2 id="call-error-heading">Why the call failed</h2>
      <dl className="facts">
        <dt>Stage</dt>
        <dd>{STAGE_NAMES[error.stage]}</dd>
        <dt>Vendor</dt>
        <dd>{error.vendor}</dd>
        {error.code ? (
          <>
            <dt>Vendor code</dt>
            <dd>
              <code>{error.code}</code>
            </dd>
          </>
        ) : null}
        <dt>Message</dt>
        <dd>{error.message}</dd>
        <dt>When</dt>
        <dd>{error.atSecond.toFixed(1)} s into the call</dd>
      </dl>
      {ADVICE[reason] ? <p className="hint">{ADVICE[reason]}</p> : null}
    </section>
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const ms = (n: number | null) => (n === null ? '—' : `${Math.round(n)} ms`);

/** One event in a sentence. */
function describe(e: CallEvent): string {
  switch (e.type) {
    case 'vendor_connected':
      return `${STAGE_NAMES[e.stage]} connected (${e.vendor})`;
    case 'vendor_fallback':
      return `${STAGE_NAMES[e.stage]}: ${e.vendor} failed, switched to ${e.to}${e.code ? ` (${e.code})` : ''}`;
    case 'turn':
      return `Turn answered: recognition ${ms(e.sttMs)}, model first token ${ms(e.llmFirstTokenMs)}, voice first byte ${ms(e.ttsFirstByteMs)}`;
    case 'interruption':
      return 'The caller interrupted the agent';
    case 'tool_call':
      return `Tool ${e.name}: ${e.status === 'ok' ? 'answered' : 'failed'} in ${e.durationMs} ms`;
    case 'transfer':
      return `Transfer (${e.mode}) to ${e.destination}: ${e.outcome}`;
    case 'error':
      return `${e.fatal ? 'Call-ending error' : 'Error'} at ${e.vendor} (${STAGE_NAMES[e.stage]})${e.code ? ` ${e.code}` : ''}: ${e.message}`;
    case 'ambience_unavailable':
      return `Ambience file not played: ${e.message}`;
    case 'ended':
      return `Call ended: ${e.reason}`;
  }
}

/** The call's event timeline (`GET /api/history/{id}/events`), as Vapi's call logs show one. */
export function CallTimeline({ callId }: { callId: string }) {
  const events = useQuery({
    queryKey: ['call-events', callId],
    queryFn: () => call((c) => c.GET('/api/history/{id}/events', { params: { path: { id: callId } } })),
  });
  return (
    <section className="card" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      <QueryView query={events} what="the call’s timeline">
        {(t) =>
          t.data.length === 0 ? (
            <p>No events were recorded for this call (it did not connect, or it ended before events were kept).</p>
          ) : (
            <>
              <DataTable
                caption="What happened in the call, in time order"
                rows={t.data.map((e, i) => ({ e, i }))}
                rowKey={(r) => String(r.i)}
                columns={[
                  { header: 'At', className: 'num timeline-at', cell: (r) => seconds(r.e.atMs) },
                  { header: 'Event', cell: (r) => <span data-testid={`event-${r.e.type}`}>{describe(r.e)}</span> },
                ]}
              />
              {t.truncated ? <p className="hint">Only the first {t.limit} events of this call were kept.</p> : null}
            </>
          )
        }
      </QueryView>
    </section>
  );
}
