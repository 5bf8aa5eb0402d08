import { describeError, log } from '../../../lib/observability/log.js';
import type { HistoryRecord } from '../../../lib/domain/history.js';
import type { LlmProvider } from '../../../lib/vendors/llm/port.js';
import type { CallOutcome } from '../call/types.js';
import { turnFigures, type TurnFigures } from '../call/latency.js';

/**
 * The summary prompt: short and factual, because it is read in a history list, not listened to.
 */
const SUMMARY_PROMPT =
  'Summarize this phone call between an AI agent and a caller in at most three sentences: who called, what ' +
  'they wanted, and how it ended. Plain text, no preamble.';

/** A summary can take a while on a busy model, but history must not wait on it forever. */
const SUMMARY_TIMEOUT_MS = 20_000;

/**
 * The agent's own LLM summarizes the transcript (with the agent's `analysis.summaryPrompt` when it has one);
 * empty when there is nothing to summarize or it fails.
 */
export async function summarize(llm: LlmProvider, model: string, transcript: string, prompt: string = SUMMARY_PROMPT): Promise<string> {
  if (!transcript.trim()) return '';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SUMMARY_TIMEOUT_MS);
  let text = '';
  try {
    for await (const event of llm.stream(
      {
        model,
        messages: [
          { role: 'system', content: prompt },
          { role: 'user', content: transcript },
        ],
        maxTokens: 200,
      },
      controller.signal,
    )) {
      if (event.type === 'text') text += event.delta;
    }
  } catch {
    return text.trim();
  } finally {
    clearTimeout(timer);
  }
  return text.trim();
}

/** The stored record: the API fields plus extra attributes the API does not return. */
export type VoiceHistoryRecord = HistoryRecord & {
  /** Per turn latency figures (ms). */
  turnLatencies: TurnFigures[];
  llmUsage: { inputTokens: number; outputTokens: number };
  callSid: string;
  agentId: string;
};

export interface FinalizeDeps {
  readonly llm: LlmProvider;
  putRecording(workspaceId: string, callId: string, wav: Uint8Array): Promise<string>;
  putHistory(record: VoiceHistoryRecord): Promise<void>;
}

/** Builds and writes the history record of a finished call (recording first, so the record can name it). */
export async function finalizeCall(outcome: CallOutcome, deps: FinalizeDeps): Promise<VoiceHistoryRecord> {
  const { setup } = outcome;
  // Billed per started second (docs/calls.md): the history writer settles this and keeps what it charged.
  const durationSeconds = Math.max(0, Math.ceil((outcome.endedAt - setup.startedAt) / 1000));
  const [summary, recordingUrl] = await Promise.all([
    summarize(deps.llm, setup.agent.llm_model, outcome.transcript, setup.agent.analysis?.summaryPrompt),
    setup.agent.recording_enabled && !outcome.recorder.isEmpty
      ? deps.putRecording(setup.workspaceId, setup.callId, outcome.recorder.toWav()).catch((error: unknown) => {
          log('error', 'recording upload failed', { callId: setup.callId, ...describeError(error) });
          return undefined;
        })
      : Promise.resolve(undefined),
  ]);
  const record: VoiceHistoryRecord = {
    _id: setup.callId,
    agentType: 'voice',
    fullName: setup.contact?.contactName ?? '',
    mobileNumber: setup.contact?.phoneNumber ?? setup.callerNumber,
    callDuration: durationSeconds,
    callEndReason: outcome.reason,
    callTranscript: outcome.transcript,
    callSummary: summary,
    // Charged in credits by the history writer (lib/services/calls.ts recordConnectedCall), which knows the
    // pricing; the record it writes carries the seconds billed and what was actually charged.
    callCost: 0,
    ...(recordingUrl ? { callRecordingUrl: recordingUrl } : {}),
    ...(outcome.transfer ? { transfer: outcome.transfer } : {}),
    workspace_id: setup.workspaceId,
    createdAt: new Date(setup.startedAt).toISOString(),
    turnLatencies: outcome.latencies.map(turnFigures),
    llmUsage: { ...outcome.llmUsage },
    callSid: setup.callSid,
    agentId: setup.agent._id,
  };
  await deps.putHistory(record);
  return record;
}
