import type { Deps } from '../deps.js';
import { GREETING_DEFAULTS, type Agent } from '../domain/agent.js';
import { gradeCheck, judgedAnalysis, judgementsOf, type Scenario, type ScenarioResult, type TestRun } from '../domain/agent-test.js';
import type { AgentOverrides } from '../domain/agent-overrides.js';
import { AppError } from '../domain/errors.js';
import { getHistoryRecord } from '../store/history.js';
import { workspaceProviderKeys } from '../store/provider-keys.js';
import { concatBytes } from '../vendors/shared/pcm.js';
import { WIDEBAND_AUDIO } from '../vendors/shared/audio-format.js';
import type { TtsSession } from '../vendors/tts/index.js';
import { configWithWorkspaceKeys } from '../vendors/workspace-keys.js';
import { agentToRunById } from './agent-runtime.js';
import type { Speak, VoiceScriptOptions } from './agent-test-voice-caller.js';
import { loadAgentTestLibs } from './agent-test-libs-load.js';
import { agentForCall, assertVariablesSupplied } from './call-variables.js';
import { assertCanAffordCall } from './credits.js';
import { issueSession, newWebCall, putNewWebCall } from './meetings.js';

/**
 * One voice scenario of an agent-test run (docs/agent-tests.md, "Voice scenarios"): a browser-transport
 * call of the agent, created as a meeting link's call is (a `video` call and its history record; the
 * runner holds the web session a join would hand out, so no link is made), recorded, and billed per minute
 * like any meeting. The caller's lines are spoken by the platform's TTS vendor adapter (the agent's
 * `tts_provider` and voice, on the workspace's key when it has one) and streamed on `/web-stream`, where
 * the agent's own recognizer hears them; no phone number is dialled.
 */

export type VoiceRunnerDeps = Pick<Deps, 'db' | 'config' | 'secrets'>;

export interface VoiceRunOptions {
  readonly voice?: Partial<VoiceScriptOptions>;
  readonly recordWaitMs: number;
  readonly analysisWaitMs: number;
}

/** As a chat scenario's (agent-test-runner.ts): a run of 25 stays far under DynamoDB's 400 KB item limit. */
const MAX_STORED_TRANSCRIPT = 8_000;

export async function playVoiceScenario(deps: VoiceRunnerDeps, run: TestRun, scenario: Scenario, opts: VoiceRunOptions): Promise<ScenarioResult> {
  const persona = scenario.persona;
  // Model personas play on the chat channel only (docs/agent-tests.md).
  if (persona.type !== 'script') throw new AppError(400, 'validation_failed', 'a model persona plays on the chat channel only');
  const ws = run.workspaceId;
  const toRun = await agentToRunById(deps.db, ws, run.agentId, run.agentVersion ?? 'draft', 'version');
  // A test call is always recorded (its result links the recording); judged checks ride on its analysis.
  const analysis = judgedAnalysis(toRun.agent.analysis, scenario.checks);
  const agentOverrides: AgentOverrides = { recording_enabled: true, ...(analysis ? { analysis } : {}) };
  const agent = await agentForCall(deps, ws, toRun.agent, agentOverrides);
  const contactName = scenario.contactName ?? `Test: ${scenario.name}`.slice(0, 200);
  await assertCanAffordCall(deps, ws);
  await assertVariablesSupplied(deps, ws, agent, undefined, scenario.variables, contactName);
  const nowMs = Date.now();
  const call = newWebCall(
    deps,
    {
      workspaceId: ws,
      agentId: agent._id,
      agentType: 'video',
      to: '',
      contactName,
      ...(scenario.variables ? { variables: scenario.variables } : {}),
      metadata: { agentTestRunId: run._id, agentTestScenarioId: scenario._id },
      agentOverrides,
      ...(toRun.version !== undefined ? { agentVersion: toRun.version } : {}),
      agentTest: { runId: run._id, scenarioId: scenario._id },
    },
    nowMs,
  );
  await putNewWebCall(deps, call);
  const session = issueSession(deps, call, agent.name, nowMs);
  const voice = await callerVoice(deps, ws, agent);
  const lines = persona.lines.slice(0, scenario.maxTurns);
  const mode = agent.first_message_mode ?? GREETING_DEFAULTS.first_message_mode;
  const speaksFirst = mode === 'model_generated' || (mode === 'agent_speaks_first' && Boolean(agent.first_message?.trim()));
  const { playVoiceScript } = await loadAgentTestLibs();
  const played = await playVoiceScript(session.streamUrl, session.credential, lines, scenario.conditions ?? {}, voice.speak, speaksFirst, opts.voice).finally(() => voice.close());
  const record = await awaitRecord(deps, ws, call._id, opts.recordWaitMs, analysis ? opts.analysisWaitMs : 0);
  const judgements = judgementsOf(scenario.checks, record?.analysis);
  const transcript = record?.callTranscript || played.lines.map((l) => `${l.role}: ${l.text}`).join('\n');
  const agentLines = agentLinesOf(transcript);
  const handoff = played.handoff || record?.transfer !== undefined || (record?.segments?.length ?? 0) > 1;
  const endReason = record?.callEndReason ?? played.endReason;
  const firstReplyMs = played.firstAudioMs[0] ?? null;
  const checks = scenario.checks.map((c, i) => gradeCheck(c, { agentLines, toolCalls: played.toolCalls, handoff, endReason, firstReplyMs }, judgements.get(i)));
  const replies = played.firstAudioMs.filter((ms): ms is number => ms !== null).sort((a, b) => a - b);
  return {
    scenarioId: scenario._id,
    name: scenario.name,
    status: checks.every((c) => c.passed) ? 'passed' : 'failed',
    callId: call._id,
    ...(record?.callRecordingUrl ? { recordingUrl: record.callRecordingUrl } : {}),
    transcript: transcript.slice(0, MAX_STORED_TRANSCRIPT),
    endReason,
    toolCalls: [...played.toolCalls],
    handoff,
    checks,
    latency: {
      firstReplyMs: firstReplyMs === null ? null : Math.round(firstReplyMs),
      replyMsMedian: replies.length ? Math.round(replies[Math.floor(replies.length / 2)]!) : null,
      replyMsMax: replies.length ? Math.round(replies.at(-1)!) : null,
    },
    cost: record?.callCost ?? 0,
    ...(played.errors.length ? { error: `the call: ${played.errors.join(', ')}` } : {}),
  };
}

/** The agent's lines of a transcript (`agent:` lines; the history's hold only what was played). */
function agentLinesOf(transcript: string): string[] {
  return transcript.split('\n').flatMap((l) => (l.startsWith('agent: ') ? [l.slice('agent: '.length)] : []));
}

/**
 * The caller's voice: the agent's TTS vendor and voice through the platform's adapter, in the browser
 * transport's format, one utterance per line. A vendor that cannot be reached fails the scenario.
 */
async function callerVoice(deps: VoiceRunnerDeps, ws: string, agent: Agent): Promise<{ speak: Speak; close: () => Promise<void> }> {
  const keys = await workspaceProviderKeys(deps.db, deps.secrets, ws).catch(() => ({}));
  const { createTtsProvider } = await loadAgentTestLibs();
  const provider = createTtsProvider(agent.tts_provider, configWithWorkspaceKeys(deps.config, keys));
  let session: TtsSession;
  try {
    session = await provider.connect({ voiceId: agent.tts_voice_id, format: WIDEBAND_AUDIO });
  } catch (error) {
    throw new AppError(503, 'service_unavailable', `the caller's voice (${agent.tts_provider}) could not be reached: ${error instanceof Error ? error.message : String(error)}`);
  }
  let n = 0;
  const speak: Speak = async (text) => {
    const utterance = session.utterance(`caller-${(n += 1)}`);
    utterance.pushText(`${text} `);
    utterance.flush();
    utterance.end();
    const chunks: Uint8Array[] = [];
    for await (const chunk of utterance.audio) if (chunk.audio.length > 0) chunks.push(chunk.audio);
    const audio = concatBytes(chunks);
    // Whole samples: a vendor's PCM stream may split one across chunks, never end on half of one.
    return audio.length % 2 === 0 ? audio : audio.subarray(0, audio.length - 1);
  };
  return { speak, close: () => session.close().catch(() => undefined) };
}

/** The call's history record once the streaming service wrote its end, and its analysis when asked (as a chat's). */
async function awaitRecord(deps: VoiceRunnerDeps, ws: string, callId: string, waitMs: number, analysisWaitMs: number) {
  const deadline = Date.now() + waitMs;
  let analysisDeadline: number | undefined;
  for (;;) {
    const record = await getHistoryRecord(deps.db, ws, callId).catch(() => undefined);
    if (record && record.callEndReason !== 'not_joined') {
      analysisDeadline ??= Date.now() + analysisWaitMs;
      if (record.analysis || Date.now() >= analysisDeadline) return record;
    } else if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, 100));
  }
}
