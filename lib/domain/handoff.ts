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
