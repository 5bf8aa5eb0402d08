import * as z from 'zod';

/**
 * Handoffs between agents (docs/handoffs.md): an agent lists the agents of its workspace it may hand the
 * conversation to, when (a description the model reads), what travels with it, and the values the model
 * must gather first. The model is offered one built-in tool per destination; calling it switches the call
 * or chat to the destination's prompt, first line, voice, models and tools.
 */

/** What the destination sees of the conversation so far: all of it, a summary the model writes, or nothing. */
export const HANDOFF_CONTEXTS = ['full', 'summary', 'none'] as const;
export type HandoffContext = (typeof HANDOFF_CONTEXTS)[number];

export const HANDOFF_VARIABLE_TYPES = ['string', 'number', 'boolean'] as const;

/** At most this many destinations per agent, and variables per destination. */
export const MAX_HANDOFFS = 10;
export const MAX_HANDOFF_VARIABLES = 10;

export const HandoffVariable = z.strictObject({
  /** Becomes a `{{variable}}` of the destination's texts and a parameter of the handoff tool. */
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a variable name: letters, digits and _, not starting with a digit'),
  type: z.enum(HANDOFF_VARIABLE_TYPES).default('string'),
  description: z.string().trim().min(1).max(500),
  required: z.boolean().default(true),
});
export type HandoffVariable = z.infer<typeof HandoffVariable>;

export const Handoff = z
  .strictObject({
    /** An agent of the same workspace, not this one. */
    agent_id: z.string().trim().min(1).max(64),
    /** When the model should hand over, for example "the caller wants to book a visit". */
    description: z.string().trim().min(1).max(1_000),
    context: z.enum(HANDOFF_CONTEXTS).default('full'),
    variables: z.array(HandoffVariable).max(MAX_HANDOFF_VARIABLES).default([]),
  })
  .superRefine((h, ctx) => {
    const seen = new Set<string>();
    h.variables.forEach((v, i) => {
      if (seen.has(v.name)) ctx.addIssue({ code: 'custom', path: ['variables', i, 'name'], message: `${v.name} is named twice` });
      if (v.name === 'summary' && h.context === 'summary') ctx.addIssue({ code: 'custom', path: ['variables', i, 'name'], message: 'summary is the handoff tool’s own argument when context is summary' });
      seen.add(v.name);
    });
  });
export type Handoff = z.infer<typeof Handoff>;

export const Handoffs = z
  .array(Handoff)
  .max(MAX_HANDOFFS)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((h, i) => {
      if (seen.has(h.agent_id)) ctx.addIssue({ code: 'custom', path: [i, 'agent_id'], message: `${h.agent_id} is listed twice` });
      seen.add(h.agent_id);
    });
  });

/** The built-in tool's name for a destination: `handoff_to_` and the destination's name, made a safe identifier. */
export function handoffToolName(destinationName: string, taken: ReadonlySet<string>): string {
  const slug = destinationName.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'agent';
  let name = `handoff_to_${slug}`;
  for (let n = 2; taken.has(name); n += 1) name = `handoff_to_${slug}_${n}`;
  return name;
}

/** A value the model extracted for a handoff variable. */
export type HandoffValue = string | number | boolean;

/**
 * The handoff tool's arguments checked against the handoff: every required variable present with its type,
 * nothing else kept; with `context: summary`, a non-empty `summary`. An error is a sentence for the model.
 */
export function handoffArguments(handoff: Handoff, json: string): { ok: true; variables: Record<string, HandoffValue>; summary?: string } | { ok: false; error: string } {
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(json || '{}');
    args = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return { ok: false, error: 'the arguments are not a JSON object' };
  }
  const variables: Record<string, HandoffValue> = {};
  const problems: string[] = [];
  // A record written without the schema's defaults (by hand) reads as the defaults would have made it.
  for (const v of handoff.variables ?? []) {
    const value = args[v.name];
    if (value === undefined || value === null || value === '') {
      if (v.required !== false) problems.push(`${v.name} is required (${v.description})`);
      continue;
    }
    const type = v.type ?? 'string';
    if (typeof value !== type) {
      problems.push(`${v.name} must be a ${type}`);
      continue;
    }
    variables[v.name] = value as HandoffValue;
  }
  const summary = typeof args.summary === 'string' ? args.summary.trim() : '';
  if (handoff.context === 'summary' && !summary) problems.push('summary is required: a few sentences for the next agent');
  if (problems.length > 0) return { ok: false, error: `not handed off: ${problems.join('; ')}. Ask the caller for what is missing, then try again.` };
  return { ok: true, variables, ...(handoff.context === 'summary' ? { summary: summary.slice(0, 2_000) } : {}) };
}

/**
 * What the destination's model is told as it takes over (a system message at the handoff's place): who
 * handed over and why, the summary (context `summary`), and the variables gathered.
 */
export function handoffNote(fromName: string, handoff: Handoff, variables: Readonly<Record<string, HandoffValue>>, summary?: string): string {
  const parts = [`(The conversation was handed over to you by ${fromName}: ${handoff.description})`];
  if (summary) parts.push(`Summary of the conversation so far: ${summary}`);
  if (Object.keys(variables).length > 0) parts.push(`Gathered before the handoff: ${JSON.stringify(variables)}`);
  return parts.join('\n');
}

/** One stretch of a call or chat run by one agent (the history record's `segments`). */
export interface AgentSegment {
  agentId: string;
  agentName: string;
  /** The published version it ran; absent for an agent never published. */
  agentVersion?: number;
  /** Seconds from the conversation's start (milliseconds kept as a fraction). */
  startSecond: number;
  endSecond: number;
  /** How this segment began; absent on the first. */
  handoff?: {
    fromAgentId: string;
    /** The handoff's description: why the model handed over. */
    reason: string;
    context: HandoffContext;
    variables: Record<string, HandoffValue>;
    summary?: string;
    /** Calls: from the tool call to the first audio of the destination's fixed first line, ms. */
    switchMs?: number;
  };
}

export const AgentSegmentView = z
  .object({
    agentId: z.string(),
    agentName: z.string(),
    agentVersion: z.number().int().optional(),
    startSecond: z.number(),
    endSecond: z.number(),
    handoff: z
      .object({
        fromAgentId: z.string(),
        reason: z.string(),
        context: z.enum(HANDOFF_CONTEXTS),
        variables: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
        summary: z.string().optional(),
        switchMs: z.number().optional(),
      })
      .optional(),
  });

/** The segments of one conversation as it runs: the first agent's opens at 0; each handoff closes one and opens the next. */
export class AgentSegments {
  private readonly list: AgentSegment[] = [];

  constructor(
    private readonly startedAtMs: number,
    first: { agentId: string; agentName: string; agentVersion?: number },
  ) {
    this.list.push({ ...first, startSecond: 0, endSecond: 0 });
  }

  private second(atMs: number): number {
    return Math.max(0, Math.round(atMs - this.startedAtMs)) / 1000;
  }

  get current(): AgentSegment {
    return this.list.at(-1)!;
  }

  /** The next agent takes over at `atMs`. */
  handOver(to: { agentId: string; agentName: string; agentVersion?: number }, handoff: NonNullable<AgentSegment['handoff']>, atMs: number): void {
    const at = this.second(atMs);
    this.current.endSecond = at;
    this.list.push({ ...to, startSecond: at, endSecond: at, handoff });
  }

  /** Every segment, the last closed at `endedAtMs`; a conversation that never handed off has one. */
  close(endedAtMs: number): AgentSegment[] {
    this.current.endSecond = Math.max(this.current.startSecond, this.second(endedAtMs));
    return this.list.map((s) => ({ ...s }));
  }
}
