import * as z from 'zod';

/**
 * Post-call analysis (docs/webhooks.md, "Post-call analysis"): per agent, an optional summary prompt, a
 * success evaluation (pass/fail or a 1-10 score against a rubric) and structured data described by a JSON
 * Schema. After the call the agent's own LLM fills them with the vendor's JSON-schema output mode; the answer
 * is validated here, and a failure is recorded as a failure, never guessed.
 */

/** JSON Schema keywords an extraction schema may use: what all three vendors' structured outputs accept. */
const SCHEMA_KEYWORDS = new Set(['type', 'properties', 'required', 'items', 'enum', 'description', 'additionalProperties', 'title', 'format', 'minimum', 'maximum', 'minItems', 'maxItems']);
const SCHEMA_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
/** Deep enough for `{contact: {address: {city}}}` and lists of objects; vendors refuse far deeper schemas. */
const MAX_SCHEMA_DEPTH = 5;
const MAX_SCHEMA_PROPERTIES = 100;
const MAX_SCHEMA_CHARS = 20_000;

type Issue = { path: (string | number)[]; message: string };

/** The problems of a user's extraction schema (an object schema within the subset above). */
export function schemaProblems(schema: unknown): Issue[] {
  const issues: Issue[] = [];
  let properties = 0;
  const walk = (node: unknown, path: (string | number)[], depth: number) => {
    if (depth > MAX_SCHEMA_DEPTH) return issues.push({ path, message: `nests at most ${MAX_SCHEMA_DEPTH} levels` });
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return issues.push({ path, message: 'a schema is a JSON object' });
    const n = node as Record<string, unknown>;
    for (const k of Object.keys(n)) if (!SCHEMA_KEYWORDS.has(k)) issues.push({ path: [...path, k], message: `unsupported keyword (allowed: ${[...SCHEMA_KEYWORDS].join(', ')})` });
    const types = Array.isArray(n.type) ? n.type : [n.type];
    if (n.type === undefined || !types.every((t) => typeof t === 'string' && SCHEMA_TYPES.has(t))) {
      issues.push({ path: [...path, 'type'], message: `one of ${[...SCHEMA_TYPES].join(', ')}` });
    }
    if (n.properties !== undefined) {
      if (n.properties === null || typeof n.properties !== 'object' || Array.isArray(n.properties)) issues.push({ path: [...path, 'properties'], message: 'an object' });
      else {
        for (const [name, child] of Object.entries(n.properties)) {
          properties += 1;
          if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name)) issues.push({ path: [...path, 'properties', name], message: 'a property name is a letter or _ then letters, digits or _' });
          walk(child, [...path, 'properties', name], depth + 1);
        }
      }
    }
    if (n.items !== undefined) walk(n.items, [...path, 'items'], depth + 1);
    if (n.required !== undefined && !(Array.isArray(n.required) && n.required.every((r) => typeof r === 'string'))) {
      issues.push({ path: [...path, 'required'], message: 'a list of property names' });
    }
    // Each other keyword's value as JSON Schema defines it, so every schema that passes here is one the
    // post-call validator (z.fromJSONSchema, in readAnalysis) and the vendors can use (test/unit/webhooks.test.ts).
    const problem = (key: string, message: string) => issues.push({ path: [...path, key], message });
    for (const key of ['description', 'title', 'format'] as const) if (n[key] !== undefined && typeof n[key] !== 'string') problem(key, 'a string');
    for (const key of ['minimum', 'maximum'] as const) if (n[key] !== undefined && !Number.isFinite(n[key])) problem(key, 'a number');
    for (const key of ['minItems', 'maxItems'] as const) if (n[key] !== undefined && !(Number.isSafeInteger(n[key]) && (n[key] as number) >= 0)) problem(key, 'a whole number, 0 or more');
    if (n.enum !== undefined && !(Array.isArray(n.enum) && n.enum.length > 0 && n.enum.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)))) {
      problem('enum', 'a non-empty list of strings, numbers, booleans or null');
    }
    if (n.additionalProperties !== undefined && typeof n.additionalProperties !== 'boolean') walk(n.additionalProperties, [...path, 'additionalProperties'], depth + 1);
    return undefined;
  };
  walk(schema, [], 1);
  const root = schema as { type?: unknown } | null;
  if (issues.length === 0 && root?.type !== 'object') issues.push({ path: ['type'], message: 'the top level is an object schema (type: object)' });
  if (properties > MAX_SCHEMA_PROPERTIES) issues.push({ path: [], message: `at most ${MAX_SCHEMA_PROPERTIES} properties in all` });
  if (JSON.stringify(schema ?? null).length > MAX_SCHEMA_CHARS) issues.push({ path: [], message: `at most ${MAX_SCHEMA_CHARS} characters` });
  return issues;
}

const ExtractionSchema = z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
  for (const issue of schemaProblems(schema)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});

export const SUCCESS_TYPES = ['pass_fail', 'score'] as const;

/** An agent's `analysis` section; every part is optional. */
export const AgentAnalysis = z
  .strictObject({
    /** Replaces the platform's summary prompt for `callSummary`. */
    summaryPrompt: z.string().trim().min(1).max(5_000).optional(),
    successEvaluation: z
      .strictObject({
        rubric: z.string().trim().min(1).max(5_000),
        type: z.enum(SUCCESS_TYPES).default('pass_fail'),
        /** With `score` (1-10): the lowest score that counts as a success (the history filter reads it). */
        passingScore: z.number().int().min(1).max(10).default(7),
      })
      .optional(),
    structuredData: z
      .strictObject({
        /** A JSON Schema of an object, e.g. `{type: object, properties: {appointment_booked: {type: boolean}}}`. */
        schema: ExtractionSchema,
        /** What to look for, beyond the schema's own descriptions. */
        prompt: z.string().trim().max(5_000).optional(),
      })
      .optional(),
  });
export type AgentAnalysis = z.infer<typeof AgentAnalysis>;

/** What the analysis of one call produced; stored on its history record and sent in `call.analyzed`. */
export interface CallAnalysis {
  /** `failed`: the model's answer was missing, not JSON or not valid against the schema (see `error`). */
  status: 'completed' | 'failed' | 'skipped';
  success?: { pass: boolean; score?: number; reason: string };
  data?: Record<string, unknown>;
  error?: string;
  analyzedAt: string;
}

export const CallAnalysisView = z
  .object({
    status: z.enum(['completed', 'failed', 'skipped']),
    success: z.object({ pass: z.boolean(), score: z.number().optional(), reason: z.string() }).optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    error: z.string().optional(),
    analyzedAt: z.string().meta({ format: 'date-time' }),
  });

/** The JSON Schema the model answers with: a success verdict and the agent's data, as the agent asks. */
export function analysisResponseSchema(analysis: AgentAnalysis): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const evaluation = analysis.successEvaluation;
  if (evaluation) {
    properties.success = {
      type: 'object',
      properties: {
        ...(evaluation.type === 'score'
          ? { score: { type: 'integer', minimum: 1, maximum: 10, description: '1 (failed) to 10 (fully met) against the rubric' } }
          : { pass: { type: 'boolean', description: 'whether the call met the rubric' } }),
        reason: { type: 'string', description: 'one sentence: why' },
      },
      required: [evaluation.type === 'score' ? 'score' : 'pass', 'reason'],
      additionalProperties: false,
    };
  }
  if (analysis.structuredData) properties.data = analysis.structuredData.schema;
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/** The instructions beside the transcript. */
export function analysisPrompt(analysis: AgentAnalysis): string {
  const parts = ['You analyze a finished phone call between an AI agent and a person. Answer only with JSON matching the given schema; leave out any field the call did not settle rather than guessing.'];
  const evaluation = analysis.successEvaluation;
  if (evaluation) {
    parts.push(
      evaluation.type === 'score'
        ? `success: score the call from 1 to 10 against this rubric: ${evaluation.rubric}`
        : `success: pass is true only if the call met this rubric: ${evaluation.rubric}`,
    );
  }
  if (analysis.structuredData) parts.push(`data: extract these fields from the call.${analysis.structuredData.prompt ? ` ${analysis.structuredData.prompt}` : ''}`);
  return parts.join('\n');
}

/**
 * Reads the model's answer: JSON, valid against the response schema (the agent's data schema included).
 * Anything else is a failed analysis with the reason, not a partial guess.
 */
export function readAnalysis(analysis: AgentAnalysis, text: string, at: string): CallAnalysis {
  let json: unknown;
  try {
    json = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return { status: 'failed', error: 'the model did not answer with JSON', analyzedAt: at };
  }
  const validator = z.fromJSONSchema(analysisResponseSchema(analysis) as never);
  const parsed = validator.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return { status: 'failed', error: `the answer does not match the schema: ${first?.path.join('.') || '(root)'}: ${first?.message}`, analyzedAt: at };
  }
  const value = parsed.data as { success?: { pass?: boolean; score?: number; reason: string }; data?: Record<string, unknown> };
  const evaluation = analysis.successEvaluation;
  const success = value.success && evaluation
    ? evaluation.type === 'score'
      ? { pass: (value.success.score ?? 0) >= evaluation.passingScore, score: value.success.score, reason: value.success.reason }
      : { pass: value.success.pass === true, reason: value.success.reason }
    : undefined;
  return { status: 'completed', ...(success ? { success } : {}), ...(value.data ? { data: value.data } : {}), analyzedAt: at };
}
