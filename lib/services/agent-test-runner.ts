import type { Deps } from '../deps.js';
import { GREETING_DEFAULTS } from '../domain/agent.js';
import { gradeCheck, judgedAnalysis, judgementsOf, type RunMessage, type Scenario, type ScenarioResult, type TestRun } from '../domain/agent-test.js';
import { roundCredits } from '../domain/call.js';
import { AppError } from '../domain/errors.js';
import { describeError, log } from '../observability/log.js';
import { claimRun, findRun, findScenario, previousSuiteRun, saveRun } from '../store/agent-tests.js';
import { getHistoryRecord } from '../store/history.js';
import { playChatScript, type ChatScriptOptions } from './agent-test-chat.js';
import { modelCaller, personaModelOf } from './agent-test-persona.js';
import { playVoiceScenario } from './agent-test-voice.js';
import type { VoiceScriptOptions } from './agent-test-voice-caller.js';
import { agentToRunById } from './agent-runtime.js';
import { agentForCall } from './call-variables.js';
import { startChat } from './chats.js';
import { announce } from './webhook-events.js';
import { ANALYSIS_TIMEOUT_MS } from './call-analysis.js';

/**
 * Plays an agent-test run (docs/agent-tests.md), the one owner of its lifecycle: claims it (queued →
 * running), plays its scenarios AGENT_TEST_PARALLELISM at a time, each as a real chat of the agent (billed
 * per message like any chat, recorded in history), grades each check, compares with the previous run of the
 * same suite, finishes the run (`passed`, `failed`, or `error`) and announces `test_run.completed`.
 */

export type RunnerDeps = Pick<Deps, 'db' | 'config' | 'secrets' | 'webhooks'>;

export interface RunnerOptions {
  readonly chat?: Partial<ChatScriptOptions>;
  readonly voice?: Partial<VoiceScriptOptions>;
  /** How long to wait for the streaming service to write the chat's history record (its cost) after it ended. */
  readonly recordWaitMs: number;
  /** How long to wait for the judged checks' analysis after the record: the analysis's own limit and a margin. */
  readonly analysisWaitMs: number;
}

const DEFAULT_RUNNER_OPTIONS = { recordWaitMs: 15_000, analysisWaitMs: ANALYSIS_TIMEOUT_MS + 5_000 } as const satisfies RunnerOptions;

/** The stored transcript is capped so a run of MAX_RUN_SCENARIOS stays far under DynamoDB's 400 KB item limit. */
const MAX_STORED_TRANSCRIPT = 8_000;

/**
 * Plays the run named by the queue message; a finished run is left alone. A run found `running` on a
 * redelivery (`receiveCount` > 1) lost its runner (the function timed out or its host died, after the
 * queue's visibility timeout): it ends `error`, its unplayed scenarios saying so, and is announced.
 */
export async function playRun(deps: RunnerDeps, message: RunMessage, options: Partial<RunnerOptions> = {}, receiveCount = 1): Promise<TestRun | undefined> {
  const opts = { ...DEFAULT_RUNNER_OPTIONS, ...options };
  const claimed = await claimRun(deps.db, message.workspaceId, message.runId, new Date().toISOString());
  if (!claimed) {
    const found = await findRun(deps.db, message.workspaceId, message.runId);
    if (found?.status !== 'running' || receiveCount <= 1) return found;
    const stopped = found.scenarios.map((s) => (s.status === 'pending' || s.status === 'running' ? { ...s, status: 'error' as const, error: 'the run stopped before this scenario finished' } : s));
    return finishRun(deps, found, stopped);
  }
  const results = [...claimed.scenarios];
  // The runner is the run's one writer; progress writes go one after another, never out of order.
  let writes: Promise<unknown> = Promise.resolve();
  const progress = () => (writes = writes.then(() => saveRun(deps.db, claimed.workspaceId, claimed._id, { scenarios: results })).catch(() => undefined));
  let nextIndex = 0;
  const worker = async () => {
    for (let i = nextIndex++; i < results.length; i = nextIndex++) {
      results[i] = { ...results[i]!, status: 'running' };
      results[i] = await playScenario(deps, claimed, results[i]!, opts);
      void progress();
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.config.AGENT_TEST_PARALLELISM, results.length) }, worker));
  await writes;
  return finishRun(deps, claimed, results);
}

async function finishRun(deps: RunnerDeps, run: TestRun, results: ScenarioResult[]): Promise<TestRun> {
  const previous = run.suite === null ? undefined : await previousSuiteRun(deps.db, run);
  const before = new Map(previous?.scenarios.map((s) => [s.scenarioId, s.status]));
  const compared = results.map((r) => {
    const was = before.get(r.scenarioId);
    return was === 'passed' || was === 'failed' || was === 'error' ? { ...r, previous: was } : r;
  });
  const passed = compared.filter((r) => r.status === 'passed').length;
  const failed = compared.filter((r) => r.status === 'failed').length;
  const errored = compared.length - passed - failed;
  const status = errored > 0 && passed + failed === 0 ? 'error' : failed + errored > 0 ? 'failed' : 'passed';
  const finished = await saveRun(deps.db, run.workspaceId, run._id, {
    scenarios: compared,
    status,
    passed,
    failed: failed + errored,
    cost: roundCredits(compared.reduce((sum, r) => sum + r.cost, 0)),
    completedAt: new Date().toISOString(),
    ...(previous ? { previousRunId: previous._id } : {}),
  });
  await announce(deps, run.workspaceId, 'test_run.completed', {
    runId: run._id,
    agentId: run.agentId,
    agentVersion: run.agentVersion,
    suite: run.suite,
    status,
    passed: finished.passed,
    failed: finished.failed,
    cost: finished.cost,
    changed: compared.filter((r) => r.previous !== undefined && r.previous !== r.status).map((r) => ({ scenarioId: r.scenarioId, name: r.name, from: r.previous, to: r.status })),
  });
  return finished;
}

/** One scenario as a chat: what a scenario's own problem (a deleted scenario, missing variables) leaves is an `error` result. */
async function playScenario(deps: RunnerDeps, run: TestRun, pending: ScenarioResult, opts: RunnerOptions): Promise<ScenarioResult> {
  const startedAt = Date.now();
  const scenario = await findScenario(deps.db, run.workspaceId, pending.scenarioId);
  if (!scenario) return { ...pending, status: 'error', error: 'the scenario was deleted before it ran', wallMs: 0 };
  try {
    const played = scenario.channel === 'voice' ? await playVoiceScenario(deps, run, scenario, opts) : await playChatScenario(deps, run, scenario, opts);
    return { ...played, wallMs: Date.now() - startedAt };
  } catch (error) {
    log('warn', 'agent test scenario failed to play', { runId: run._id, scenarioId: scenario._id, ...describeError(error) });
    const reason = error instanceof AppError ? error.message : `the scenario could not be played (the ${scenario.channel === 'voice' ? 'call' : 'chat'} service did not answer)`;
    return { ...pending, name: scenario.name, status: 'error', error: reason, wallMs: Date.now() - startedAt };
  }
}

async function playChatScenario(deps: RunnerDeps, run: TestRun, scenario: Scenario, opts: RunnerOptions): Promise<ScenarioResult> {
  const toRun = await agentToRunById(deps.db, run.workspaceId, run.agentId, run.agentVersion ?? 'draft', 'version');
  // Judged checks ride on the chat's post-call analysis: the agent's own model grades them, with its keys.
  const analysis = judgedAnalysis(toRun.agent.analysis, scenario.checks);
  const agentOverrides = analysis ? { analysis } : undefined;
  const agent = await agentForCall(deps, run.workspaceId, toRun.agent, agentOverrides);
  const personaModel = scenario.persona.type === 'model' ? personaModelOf(scenario.persona, agent) : undefined;
  const chat = await startChat(deps, {
    workspaceId: run.workspaceId,
    agent,
    agentVersion: toRun.version,
    contactName: scenario.contactName ?? `Test: ${scenario.name}`.slice(0, 200),
    ...(scenario.variables ? { variables: scenario.variables } : {}),
    metadata: { agentTestRunId: run._id, agentTestScenarioId: scenario._id },
    agentTest: { runId: run._id, scenarioId: scenario._id },
    ...(agentOverrides ? { agentOverrides } : {}),
  });
  const greetingReplies = (agent.first_message_mode ?? GREETING_DEFAULTS.first_message_mode) === 'model_generated' ? 1 : 0;
  const persona = scenario.persona.type === 'model' ? await modelCaller(deps, run.workspaceId, chat.chatId, scenario.persona, personaModel!, scenario.maxTurns) : undefined;
  const caller = scenario.persona.type === 'script' ? scenario.persona.lines.slice(0, scenario.maxTurns) : persona!;
  const played = await playChatScript(chat.chatUrl, chat.credential, caller, greetingReplies, opts.chat);
  const record = await awaitRecord(deps, run.workspaceId, chat.chatId, opts.recordWaitMs, analysis ? opts.analysisWaitMs : 0);
  const judgements = judgementsOf(scenario.checks, record?.analysis);
  const agentLines = played.lines.filter((l) => l.role === 'agent').map((l) => l.text);
  const firstReplyMs = played.firstWordsMs[0] ?? null;
  const checks = scenario.checks.map((c, i) => gradeCheck(c, { agentLines, toolCalls: played.toolCalls, handoff: played.handoff, endReason: played.endReason, firstReplyMs }, judgements.get(i)));
  const replies = played.firstWordsMs.filter((ms): ms is number => ms !== null).sort((a, b) => a - b);
  const transcript = record?.callTranscript || played.lines.map((l) => `${l.role}: ${l.text}`).join('\n');
  return {
    scenarioId: scenario._id,
    name: scenario.name,
    status: persona?.error ? 'error' : checks.every((c) => c.passed) ? 'passed' : 'failed',
    chatId: chat.chatId,
    transcript: transcript.slice(0, MAX_STORED_TRANSCRIPT),
    endReason: played.endReason,
    toolCalls: [...played.toolCalls],
    handoff: played.handoff,
    checks,
    latency: {
      firstReplyMs: firstReplyMs === null ? null : Math.round(firstReplyMs),
      replyMsMedian: replies.length ? Math.round(replies[Math.floor(replies.length / 2)]!) : null,
      replyMsMax: replies.length ? Math.round(replies.at(-1)!) : null,
    },
    // A model persona's lines are charged beside the chat's messages (docs/agent-tests.md, "Billing").
    cost: roundCredits((record?.callCost ?? 0) + (persona?.usage().cost ?? 0)),
    ...(persona && { persona: persona.usage() }),
    ...(played.errors.length || persona?.error ? { error: [played.errors.length ? `the chat answered: ${played.errors.join(', ')}` : '', persona?.error ?? ''].filter(Boolean).join('; ') } : {}),
  };
}

/**
 * The chat's history record once the streaming service wrote its end (its cost), or undefined after
 * `waitMs`; with `analysisWaitMs`, also its analysis (the judged checks), or the record without it after that.
 */
async function awaitRecord(deps: RunnerDeps, ws: string, chatId: string, waitMs: number, analysisWaitMs: number) {
  const deadline = Date.now() + waitMs;
  let analysisDeadline: number | undefined;
  for (;;) {
    const record = await getHistoryRecord(deps.db, ws, chatId).catch(() => undefined);
    if (record && record.callEndReason !== 'not_joined') {
      analysisDeadline ??= Date.now() + analysisWaitMs;
      if (record.analysis || Date.now() >= analysisDeadline) return record;
    } else if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, 100));
  }
}
