import * as z from 'zod';
import { AgentView, type Agent } from './agent.js';
import { Timestamp } from './common.js';

/**
 * Published agent versions (docs/agent-versions.md). Publishing freezes the agent's configuration as
 * version n (1, 2, ...); calls, meetings, chats, campaigns, numbers and widgets then run the latest
 * published version unless they pin one (`agent_version`), and edits change only the draft (the agent
 * record). An agent never published runs its record, as before versions existed.
 */

/** Fields of an agent record that are not its configuration: identity, bookkeeping and the version pointer. */
const NOT_CONFIG = ['_id', 'workspaceId', 'createdAt', 'updatedAt', 'published_version', 'published_from'] as const;
type NotConfig = (typeof NOT_CONFIG)[number];

/** The configuration a version freezes: every agent field but identity and bookkeeping. */
export type AgentConfig = Omit<Agent, NotConfig>;

export function configOf(agent: Agent): AgentConfig {
  const config: Record<string, unknown> = { ...agent };
  for (const field of NOT_CONFIG) delete config[field];
  return config as AgentConfig;
}

/** The stored version: the configuration as it was published, under the agent's identity. */
export interface AgentVersion {
  agentId: string;
  workspaceId: string;
  version: number;
  note: string;
  publishedAt: string;
  /** The agent as published (`llm_api_key` sealed, as on the record). */
  agent: Agent;
}

/** A version number in a path or body: 1 and up. */
export const VersionNumber = z.coerce.number().int().min(1).max(1_000_000);
export const VersionParams = z.object({ id: z.string().min(1).max(64), version: VersionNumber });

export const PublishBody = z.strictObject({
  /** What changed, for whoever reads the history. */
  note: z.string().trim().max(500).default(''),
});
export const RestoreBody = z.strictObject({
  /** Publish the restored configuration at once as a new version (a rollback); else it is the draft only. */
  publish: z.boolean().default(false),
  note: z.string().trim().max(500).optional(),
});

export const AgentVersionListItem = z
  .object({ agentId: z.string(), version: z.number().int(), note: z.string(), publishedAt: Timestamp })
  .meta({ id: 'AgentVersionListItem' });
export const AgentVersionView = z
  .object({ ...AgentVersionListItem.shape, agent: AgentView })
  .meta({ id: 'AgentVersion' });

/** `from` / `to` of a diff: a version number or `draft`. */
export const DiffSide = z.union([z.literal('draft'), VersionNumber]);
export const DiffQuery = z.object({
  /** Default: the latest published version. */
  from: DiffSide.optional(),
  /** Default: the draft. */
  to: DiffSide.optional(),
});
export const AgentDiff = z
  .object({
    from: z.union([z.literal('draft'), z.number().int()]),
    to: z.union([z.literal('draft'), z.number().int()]),
    changes: z.array(z.object({ field: z.string(), before: z.unknown().optional(), after: z.unknown().optional() })),
  })
  .meta({ id: 'AgentDiff' });
export type AgentDiff = z.infer<typeof AgentDiff>;

/** A stable text of a value for comparison: objects with their keys sorted. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : x,
  );

/**
 * The top-level configuration fields that differ between two agents, with both values; a field absent on
 * one side has no value there. A custom model's key is never shown: a changed key reads as the mask.
 */
export function diffConfigs(before: Agent, after: Agent, mask: string): AgentDiff['changes'] {
  const a = configOf(before) as Record<string, unknown>;
  const b = configOf(after) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const shown = (field: string, v: unknown) => (field === 'llm_api_key' && typeof v === 'string' ? mask : v);
  return fields.flatMap((field) => {
    if (canonical(a[field] ?? null) === canonical(b[field] ?? null)) return [];
    return [{ field, ...(a[field] !== undefined && { before: shown(field, a[field]) }), ...(b[field] !== undefined && { after: shown(field, b[field]) }) }];
  });
}

/** An agent as the API shows it: the custom model's key masked, and whether the draft has unpublished edits. */
export function agentView<A extends Agent>(agent: A, mask: (a: A) => A): A & { has_unpublished_changes: boolean } {
  return { ...mask(agent), has_unpublished_changes: agent.published_version !== undefined && agent.updatedAt !== agent.published_from };
}
