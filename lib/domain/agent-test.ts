import * as z from 'zod';
import { BodyWorkspaceId } from './common.js';
import { CALL_END_REASONS } from './call-end.js';
import { CallVariables } from './template.js';
import { VENDOR_LLM_PROVIDERS } from './providers.js';
import type { AgentAnalysis, CallAnalysis } from './analysis.js';
import { VoiceConditions } from './agent-test-voice.js';

/**
 * Agent tests (docs/agent-tests.md): scenarios a simulated caller plays against an agent, and runs that play
 * one scenario or a suite against the agent's draft or a published version and grade each check.
 */

/** A scenario is graded by at most this many checks: a screen of verdicts, not a test plan. */
export const MAX_SCENARIO_CHECKS = 20;
/** A scripted caller says at most this many lines (one chat's rate limit is 20 messages a minute, docs/chat.md). */
export const MAX_SCRIPT_LINES = 20;
/** The longest scripted line: the chat's own message limit (docs/chat.md). */
export const MAX_LINE_CHARS = 2_000;
/** A run plays at most this many scenarios: a suite is a gate for one publish, and its results fit one record. */
export const MAX_RUN_SCENARIOS = 25;
/** A workspace keeps at most this many scenarios. */
export const MAX_SCENARIOS = 500;

const Phrase = z.string().trim().min(1).max(500);
const Label = z.string().trim().min(1).max(200).optional().describe('shown beside the verdict; defaults to a description of the check');

/** One line of a scripted caller: said `delayMs` after the agent's previous reply ended. */
export const ScriptLine = z.strictObject({
  text: z.string().trim().min(1).max(MAX_LINE_CHARS),
  delayMs: z.number().int().min(0).max(30_000).default(0).describe('wait this long after the agent finished before saying the line'),
});

/** The longest instructions a model persona takes: a page of who the caller is and what they want. */
export const MAX_PERSONA_INSTRUCTIONS = 4_000;

/** A model plays the caller from instructions (lib/domain/agent-test-persona.ts has its prompt and stop token). */
export const ModelPersona = z.strictObject({
  type: z.literal('model'),
  instructions: z.string().trim().min(1).max(MAX_PERSONA_INSTRUCTIONS).describe('who the caller is, what they want, how they behave'),
  firstLine: z.string().trim().min(1).max(MAX_LINE_CHARS).optional().describe("the caller's first line, said as written (no model request)"),
  model: z
    .strictObject({ provider: z.enum(VENDOR_LLM_PROVIDERS), model: z.string().trim().min(1).max(100) })
    .optional()
    .describe("the model that plays the caller; default the agent's own llm_provider and llm_model"),
});

export type ModelPersona = z.infer<typeof ModelPersona>;

/** Who plays the caller. */
export const Persona = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('script'), lines: z.array(ScriptLine).min(1).max(MAX_SCRIPT_LINES) }),
  ModelPersona,
]);
export type Persona = z.infer<typeof Persona>;

/** What a scenario's run must show: deterministic checks read the conversation alone; `judge` asks the agent's model. */
export const TestCheck = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('tool_called'),
    label: Label,
    /** The tool's function name as the model calls it (`check_order`, `end_call`). */
    tool: z.string().trim().min(1).max(64),
    /** Each given argument must be present with this value (other arguments may be there too). */
    arguments: z.record(z.string().min(1).max(64), z.union([z.string().max(500), z.number(), z.boolean()])).optional(),
  }),
  z.strictObject({ type: z.literal('tool_not_called'), label: Label, tool: z.string().trim().min(1).max(64) }),
  z.strictObject({ type: z.literal('handoff'), label: Label, expected: z.boolean().default(true).describe('false: the agent must not transfer or hand off') }),
  z.strictObject({ type: z.literal('end_reason'), label: Label, reason: z.enum(CALL_END_REASONS) }),
  z.strictObject({ type: z.literal('says'), label: Label, phrase: Phrase.describe('the agent says this somewhere (case-insensitive)') }),
  z.strictObject({ type: z.literal('never_says'), label: Label, phrase: Phrase.describe('the agent never says this (case-insensitive)') }),
  z.strictObject({ type: z.literal('first_reply_within'), label: Label, ms: z.number().int().min(1).max(120_000).describe("the agent's first reply starts within this many ms of the caller's first line") }),
  /** Judged: the agent's own model grades the transcript against the rubric, with its reasoning (the post-call analysis). */
  z.strictObject({ type: z.literal('judge'), label: Label, rubric: z.string().trim().min(1).max(2_000).describe('what the agent must have done, in plain words') }),
]);
export type TestCheck = z.infer<typeof TestCheck>;

/** `chat`: the widget's chat socket; `voice`: a browser-transport call, the caller spoken by our TTS (agent-test-voice.ts). */
export const TEST_CHANNELS = ['chat', 'voice'] as const;

const scenarioFields = {
  name: z.string().trim().min(1).max(200),
  /** Scenarios of one suite run together: `POST /api/agent-tests/runs {"suite"}`. */
  suite: z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dot, dash and underscore').default('default'),
  description: z.string().trim().max(2_000).optional(),
  channel: z.enum(TEST_CHANNELS).default('chat'),
  /** Voice only: noise, backchannels, a cough, talk-over, a pause, a hang-up (docs/agent-tests.md). */
  conditions: VoiceConditions.optional(),
  persona: Persona,
  /** The conversation's `{{variables}}`, as a chat's (docs/calls.md). */
  variables: CallVariables.optional(),
  /** Who the caller is in history and in `{{contactName}}`-free prompts (docs/chat.md). */
  contactName: z.string().trim().min(1).max(200).optional(),
  /** The caller says at most this many lines; the rest of the script is left unsaid. */
  maxTurns: z.number().int().min(1).max(MAX_SCRIPT_LINES).default(10),
  checks: z.array(TestCheck).min(1, 'a scenario needs at least one check').max(MAX_SCENARIO_CHECKS),
};

/** POST /api/agent-tests. */
export const ScenarioCreate = z.strictObject({ ...scenarioFields, workspaceId: BodyWorkspaceId }).meta({ id: 'AgentTestScenarioCreate' });
export type ScenarioCreate = z.infer<typeof ScenarioCreate>;

/** PATCH /api/agent-tests/{id}: the fields sent replace the scenario's. */
export const ScenarioUpdate = z
  .strictObject({
    name: scenarioFields.name.optional(),
    suite: z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9._-]+$/).optional(),
    description: scenarioFields.description,
    channel: z.enum(TEST_CHANNELS).optional(),
    conditions: VoiceConditions.optional().describe('replaces them; `{}` for a clean line'),
    persona: Persona.optional(),
    variables: scenarioFields.variables,
    contactName: scenarioFields.contactName,
    maxTurns: z.number().int().min(1).max(MAX_SCRIPT_LINES).optional(),
    checks: scenarioFields.checks.optional(),
  })
  .meta({ id: 'AgentTestScenarioUpdate' });
export type ScenarioUpdate = z.infer<typeof ScenarioUpdate>;

export const Scenario = z
  .object({
    _id: z.string(),
    workspaceId: z.string(),
    name: z.string(),
    suite: z.string(),
    description: z.string().optional(),
    channel: z.enum(TEST_CHANNELS),
    conditions: VoiceConditions.optional(),
    persona: Persona,
    variables: CallVariables.optional(),
    contactName: z.string().optional(),
    maxTurns: z.number().int(),
    checks: z.array(TestCheck),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'AgentTestScenario' });
export type Scenario = z.infer<typeof Scenario>;

export const ScenarioQuery = z.object({ suite: z.string().trim().min(1).max(100).optional().describe('only this suite') });

/** POST /api/agent-tests/runs: one scenario or a whole suite. */
export const RunRequest = z
  .strictObject({
    agentId: z.string().trim().min(1).max(64),
    /** A published version (docs/agent-versions.md); absent: the agent's draft, as it is now. */
    version: z.number().int().min(1).max(1_000_000).optional(),
    scenarioId: z.string().trim().min(1).max(64).optional(),
    suite: z.string().trim().min(1).max(100).optional(),
    workspaceId: BodyWorkspaceId,
  })
  .refine((r) => (r.scenarioId === undefined) !== (r.suite === undefined), { message: 'name exactly one of scenarioId and suite' })
  .meta({ id: 'AgentTestRunRequest' });
export type RunRequest = z.infer<typeof RunRequest>;

export const RUN_STATUSES = ['queued', 'running', 'passed', 'failed', 'error'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** One check's verdict, with what the conversation showed. */
export const CheckVerdict = z.object({
  type: z.string(),
  label: z.string(),
  passed: z.boolean(),
  /** What decided it: the matching line, the tool call seen, the measured time. */
  evidence: z.string(),
});
export type CheckVerdict = z.infer<typeof CheckVerdict>;

/** A tool call the agent made, as the run saw it. */
export const SeenToolCall = z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) });
export type SeenToolCall = z.infer<typeof SeenToolCall>;

/** What a model persona's model did in one scenario (docs/agent-tests.md, "Billing"). */
export const PersonaUsage = z.object({
  provider: z.string(),
  model: z.string(),
  /** Lines the model wrote (and was charged for); a `firstLine` is not one. */
  lines: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  /** Credits: `lines` times the chat message price. */
  cost: z.number(),
});
export type PersonaUsage = z.infer<typeof PersonaUsage>;

/** One scenario of a run. */
export const ScenarioResult = z.object({
  scenarioId: z.string(),
  name: z.string(),
  status: z.enum(['pending', 'running', 'passed', 'failed', 'error']),
  /** The chat the scenario played (its history record: `GET /api/history/{chatId}`). */
  chatId: z.string().optional(),
  /** Voice: the call the scenario played (its history record: `GET /api/history/{callId}`, its recording). */
  callId: z.string().optional(),
  /** Voice: the call's recording, as its history record has it (`GET /api/history/{callId}/recording`). */
  recordingUrl: z.string().optional(),
  /** `agent:` / `user:` lines (the first 8,000 characters; the history record has the whole). */
  transcript: z.string().optional(),
  endReason: z.string().optional(),
  toolCalls: z.array(SeenToolCall).optional(),
  handoff: z.boolean().optional(),
  checks: z.array(CheckVerdict),
  /** Chat: from a line sent to the reply's first words. Voice: from the end of the caller's audio to the agent's first audio. */
  latency: z.object({ firstReplyMs: z.number().nullable(), replyMsMedian: z.number().nullable(), replyMsMax: z.number().nullable() }).optional(),
  /** Credits the scenario's conversation cost: a chat's messages (docs/chat.md), a voice call's minutes (docs/calls.md). */
  cost: z.number(),
  wallMs: z.number().optional(),
  /** A model persona's requests: the lines it wrote, their price and the model's token counts. */
  persona: PersonaUsage.optional(),
  error: z.string().optional(),
  /** The same scenario's status in the previous run of this suite against this agent, when it ran there. */
  previous: z.enum(['passed', 'failed', 'error']).optional(),
});
export type ScenarioResult = z.infer<typeof ScenarioResult>;

export const TestRun = z
  .object({
    _id: z.string(),
    workspaceId: z.string(),
    agentId: z.string(),
    /** The published version run, or null for the draft. */
    agentVersion: z.number().int().nullable(),
    /** The suite run, or null for a single scenario. */
    suite: z.string().nullable(),
    status: z.enum(RUN_STATUSES),
    scenarios: z.array(ScenarioResult),
    passed: z.number().int(),
    failed: z.number().int(),
    cost: z.number(),
    /** The previous finished run of the same suite against the same agent, which `previous` compares with. */
    previousRunId: z.string().optional(),
    createdAt: z.string(),
    startedAt: z.string().optional(),
    completedAt: z.string().optional(),
  })
  .meta({ id: 'AgentTestRun' });
export type TestRun = z.infer<typeof TestRun>;

/** The queue message: one run to play. */
export const RunMessage = z.object({ workspaceId: z.string().min(1), runId: z.string().min(1) });
export type RunMessage = z.infer<typeof RunMessage>;

/** What a check is called in reports when it has no label. */
export function checkLabel(check: TestCheck): string {
  if (check.label) return check.label;
  switch (check.type) {
    case 'tool_called':
      return `calls ${check.tool}${check.arguments ? ` with ${JSON.stringify(check.arguments)}` : ''}`;
    case 'tool_not_called':
      return `never calls ${check.tool}`;
    case 'handoff':
      return check.expected ? 'hands off to a person' : 'does not hand off';
    case 'end_reason':
      return `ends with ${check.reason}`;
    case 'says':
      return `says "${check.phrase}"`;
    case 'never_says':
      return `never says "${check.phrase}"`;
    case 'first_reply_within':
      return `first reply within ${check.ms} ms`;
    case 'judge':
      return `judged: ${check.rubric.length > 80 ? `${check.rubric.slice(0, 79)}…` : check.rubric}`;
  }
}

/** A judged check's answer from the model, or why there is none (the analysis failed or never came). */
export type Judgement = { readonly pass: boolean; readonly reasoning: string } | { readonly error: string };

/** The structured-data property the judged checks' verdicts are asked under (a JSON Schema property name). */
export const JUDGE_PROPERTY = 'agent_test_verdicts';

/** The key of judged check `i` among a scenario's checks. */
export const judgeKey = (i: number) => `check_${i}`;

/** What a played conversation showed, as the checks read it. */
export interface Played {
  /** The agent's lines, in order. */
  readonly agentLines: readonly string[];
  readonly toolCalls: readonly SeenToolCall[];
  readonly handoff: boolean;
  readonly endReason: string;
  readonly firstReplyMs: number | null;
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');

/** Grades one check against the conversation; a judged check reads its `judgement`. */
export function gradeCheck(check: TestCheck, played: Played, judgement?: Judgement): CheckVerdict {
  const verdict = (passed: boolean, evidence: string): CheckVerdict => ({ type: check.type, label: checkLabel(check), passed, evidence });
  switch (check.type) {
    case 'tool_called': {
      const named = played.toolCalls.filter((c) => c.name === check.tool);
      if (named.length === 0) return verdict(false, played.toolCalls.length ? `tools called: ${played.toolCalls.map((c) => c.name).join(', ')}` : 'no tool was called');
      const want = Object.entries(check.arguments ?? {});
      const match = named.find((c) => want.every(([k, v]) => c.arguments[k] === v));
      return match ? verdict(true, `${match.name}(${JSON.stringify(match.arguments)})`) : verdict(false, `called with ${named.map((c) => JSON.stringify(c.arguments)).join('; ')}`);
    }
    case 'tool_not_called': {
      const seen = played.toolCalls.find((c) => c.name === check.tool);
      return seen ? verdict(false, `${seen.name}(${JSON.stringify(seen.arguments)})`) : verdict(true, `${check.tool} was not called`);
    }
    case 'handoff':
      return verdict(played.handoff === check.expected, played.handoff ? 'the agent handed off' : 'no hand-off');
    case 'end_reason':
      return verdict(played.endReason === check.reason, `ended: ${played.endReason}`);
    case 'says': {
      const line = played.agentLines.find((l) => norm(l).includes(norm(check.phrase)));
      return line ? verdict(true, `agent: ${line}`) : verdict(false, 'no agent line says it');
    }
    case 'never_says': {
      const line = played.agentLines.find((l) => norm(l).includes(norm(check.phrase)));
      return line ? verdict(false, `agent: ${line}`) : verdict(true, 'no agent line says it');
    }
    case 'first_reply_within':
      return played.firstReplyMs === null
        ? verdict(false, 'the agent never replied')
        : verdict(played.firstReplyMs <= check.ms, `first reply after ${Math.round(played.firstReplyMs)} ms`);
    case 'judge':
      if (!judgement) return verdict(false, 'the judge did not answer');
      return 'error' in judgement ? verdict(false, `the judge failed: ${judgement.error}`) : verdict(judgement.pass, judgement.reasoning);
  }
}

/**
 * The agent's `analysis` for a scenario with judged checks: its own (summary, success rubric, data schema)
 * plus one structured-data property of verdicts, one per judged check, which the post-call analysis asks of
 * the agent's own model (docs/webhooks.md, "Post-call analysis"). Undefined when no check is judged.
 */
export function judgedAnalysis(own: AgentAnalysis | null | undefined, checks: readonly TestCheck[]): AgentAnalysis | undefined {
  const judged = checks.flatMap((c, i) => (c.type === 'judge' ? [{ i, rubric: c.rubric }] : []));
  if (judged.length === 0) return undefined;
  const verdict = {
    type: 'object',
    properties: { pass: { type: 'boolean', description: 'true only if the agent met the rubric' }, reasoning: { type: 'string', description: 'one or two sentences: why, quoting the transcript' } },
    required: ['pass', 'reasoning'],
    additionalProperties: false,
  };
  const verdicts = {
    type: 'object',
    description: 'one verdict per rubric below, graded on the agent\u2019s lines',
    properties: Object.fromEntries(judged.map(({ i }) => [judgeKey(i), verdict])),
    required: judged.map(({ i }) => judgeKey(i)),
    additionalProperties: false,
  };
  const base = own?.structuredData;
  const schema = { ...(base?.schema ?? { type: 'object', properties: {} }) } as { properties?: Record<string, unknown>; required?: string[] } & Record<string, unknown>;
  const rubrics = `${JUDGE_PROPERTY}: grade the agent against each rubric: ${judged.map(({ i, rubric }) => `${judgeKey(i)}: ${rubric}`).join(' | ')}`;
  return {
    ...(own ?? {}),
    structuredData: {
      schema: { ...schema, type: 'object', properties: { ...(schema.properties ?? {}), [JUDGE_PROPERTY]: verdicts }, required: [...(schema.required ?? []), JUDGE_PROPERTY] },
      prompt: [base?.prompt, rubrics].filter(Boolean).join('\n').slice(0, 5_000),
    },
  };
}

/** The judged checks' answers from a finished analysis, by check index. */
export function judgementsOf(checks: readonly TestCheck[], analysis: CallAnalysis | undefined): Map<number, Judgement> {
  const out = new Map<number, Judgement>();
  const verdicts = (analysis?.data?.[JUDGE_PROPERTY] ?? {}) as Record<string, { pass?: unknown; reasoning?: unknown } | undefined>;
  checks.forEach((c, i) => {
    if (c.type !== 'judge') return;
    if (!analysis) return out.set(i, { error: 'no analysis was recorded in time' });
    if (analysis.status !== 'completed') return out.set(i, { error: analysis.error ?? analysis.status });
    const v = verdicts[judgeKey(i)];
    out.set(i, typeof v?.pass === 'boolean' ? { pass: v.pass, reasoning: String(v.reasoning ?? '') } : { error: 'the answer has no verdict for this rubric' });
  });
  return out;
}
