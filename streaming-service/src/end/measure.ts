import { describeError, log } from '../../../lib/observability/log.js';
import type { CallMeasurement } from '../../../lib/domain/call-measurement.js';
import type { CallCapability } from '../../../lib/domain/provider-key.js';
import type { LlmProvider } from '../../../lib/vendors/llm/port.js';
import type { CallOutcome } from '../call/types.js';
import { turnFigures } from '../call/latency.js';

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

/** Which of the call's vendors ran on the workspace's own keys (their shares are not charged). */
export interface CallBilling {
  readonly onWorkspaceKeys: readonly CallCapability[];
  readonly realtimeOnWorkspaceKey?: boolean;
}

/** A realtime call's key and the seconds the cascade answered after a fallback, rounded up as the call is. */
function realtimeBillingOf(outcome: CallOutcome, billing: CallBilling): { onWorkspaceKey: boolean; cascadeSeconds: number } {
  const from = outcome.realtimeFellBackAt;
  return { onWorkspaceKey: billing.realtimeOnWorkspaceKey ?? false, cascadeSeconds: from === undefined ? 0 : Math.max(0, Math.ceil((outcome.endedAt - from) / 1000)) };
}

export interface MeasureDeps {
  readonly llm: LlmProvider;
  putRecording(workspaceId: string, callId: string, wav: Uint8Array): Promise<string>;
}

/**
 * What the container alone knows of a finished call, for the call's owner to end it with
 * (lib/services/connected-call-end.ts): the duration, the conversation, its summary and recording (uploaded
 * first, so the measurement can name it), the latencies, LLM usage and transfer, and which capabilities ran
 * on the workspace's own keys. Never a history record: the owner builds that from the call.
 */
export async function measureCall(outcome: CallOutcome, billing: CallBilling, deps: MeasureDeps): Promise<CallMeasurement> {
  const { onWorkspaceKeys } = billing;
  const { setup } = outcome;
  // Billed per started second (docs/calls.md); the owner settles it and records the seconds billed.
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
  return {
    workspaceId: setup.workspaceId,
    callId: setup.callId,
    callSid: setup.callSid,
    durationSeconds,
    endReason: outcome.reason,
    transcript: outcome.transcript,
    summary,
    ...(recordingUrl ? { recordingUrl } : {}),
    turnLatencies: outcome.latencies.map(turnFigures),
    llmUsage: { ...outcome.llmUsage },
    ...(outcome.transfer ? { transfer: outcome.transfer } : {}),
    ...(outcome.failure ? { callError: outcome.failure.error } : {}),
    ...(outcome.events ? { events: outcome.events } : {}),
    onWorkspaceKeys,
    ...(setup.contact ? { contact: { name: setup.contact.contactName, phoneNumber: setup.contact.phoneNumber } } : {}),
    ...(outcome.knowledge?.length ? { knowledge: [...outcome.knowledge] } : {}),
    ...(outcome.segments && outcome.segments.length > 1 ? { segments: [...outcome.segments] } : {}),
    ...(outcome.realtimeUsage ? { realtimeUsage: { ...outcome.realtimeUsage }, realtimeBilling: realtimeBillingOf(outcome, billing) } : {}),
  };
}
