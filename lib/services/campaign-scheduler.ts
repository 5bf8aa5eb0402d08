import type { Deps } from '../deps.js';
import { isOpen, nextOpen } from '../domain/calling-window.js';
import { missingVariables, outcomeOfCall, retryAfter, type Campaign, type CampaignTarget } from '../domain/campaign.js';
import type { Agent } from '../domain/agent.js';
import type { PhoneNumber } from '../domain/phone-number.js';
import { newId } from '../domain/ids.js';
import { describeError, log } from '../observability/log.js';
import { findAgent } from '../store/agents.js';
import { agentToRun } from './agent-runtime.js';
import { findCall } from '../store/calls.js';
import {
  activeCampaigns,
  callsById,
  claimDial,
  deferTarget,
  dueTargets,
  findCampaign,
  finishDial,
  flightTargets,
  retireCampaign,
  skipTarget,
  tombstoneCall,
  transitionCampaign,
  unclaimDial,
} from '../store/campaigns.js';
import { getPhoneNumber } from '../store/phone-numbers.js';
import { agentPricing } from './calls.js';
import { placeOutboundCall } from './outbound-calls.js';
import { agentVariables, targetVariables } from './campaigns.js';
import type { HistoryDeps } from './call-events.js';

/**
 * The campaign scheduler (docs/campaigns.md, "The scheduler"): one tick looks at every active campaign,
 * (1) accounts for the calls of its targets that ended (outcome, retry or done, slot freed), (2) moves it
 * along by its schedule, and (3) claims and dials due contacts inside their calling hours, up to the
 * campaign's concurrency and the account's dials per second, through the same call path as the API.
 *
 * It keeps no state of its own: everything is in the table and every step is a conditional write, so two
 * schedulers at once (an overlapping Lambda run, a restarted `npm start`) never dial one contact twice for
 * one attempt, and a scheduler that dies mid-tick loses nothing (see {@link ABANDONED_CLAIM_MS}).
 */

export type SchedulerDeps = Pick<Deps, 'config' | 'db' | 'dispatch'> & HistoryDeps;

export interface SchedulerOptions {
  /** The clock (tests move it). */
  readonly now?: () => number;
  /** The account's dials per second (Twilio's CPS); the config's by default. */
  readonly dialsPerSecond?: number;
}

export interface TickResult {
  readonly campaigns: number;
  readonly dialed: number;
  readonly finished: number;
}

/**
 * A claim whose call was never written (its scheduler died between the claim and the call) is given back
 * after this long: far beyond a claim-to-call gap (milliseconds), so a slow scheduler is never overtaken.
 */
export const ABANDONED_CLAIM_MS = 2 * 60_000;
/** A number already in a call is tried again this much later. */
const NUMBER_BUSY_RETRY_MS = 60_000;
/** Targets read per free slot: some are skipped or deferred, the rest fill the slot. */
const READ_AHEAD = 2;

/** The rate window's partition: all campaign dials share the platform's one telephony account. */
const ACCOUNT_PARTITION = 'platform';

/** Runs one tick over every active campaign. */
export async function runCampaignTick(deps: SchedulerDeps, options: SchedulerOptions = {}): Promise<TickResult> {
  const clock = options.now ?? Date.now;
  const campaigns = await activeCampaigns(deps.db);
  let dialed = 0;
  let finished = 0;
  await Promise.all(
    campaigns.map(async (listed) => {
      try {
        const ended = await reconcile(deps, listed, clock());
        finished += ended;
        const c = await advance(deps, listed, clock());
        const placed = c?.status === 'running' ? await dialDue(deps, c, clock, options.dialsPerSecond ?? deps.config.CAMPAIGN_DIALS_PER_SECOND) : 0;
        dialed += placed;
      } catch (error) {
        // One campaign's trouble must not stop the others; the next tick tries again.
        log('error', 'campaign tick failed', { campaignId: listed._id, error: describeError(error) });
      }
    }),
  );
  return { campaigns: campaigns.length, dialed, finished };
}

/** Accounts for the targets whose call ended; gives back claims whose call was never written. */
async function reconcile(deps: SchedulerDeps, c: Campaign, nowMs: number): Promise<number> {
  const flying = await flightTargets(deps.db, c._id, Math.max(c.concurrency, c.inFlight) * 2);
  if (flying.length === 0) return 0;
  const calls = await callsById(deps.db, c.workspaceId, flying.map((t) => t.callId!));
  const now = new Date(nowMs).toISOString();
  let finished = 0;
  for (const t of flying) {
    const call = calls.get(t.callId!);
    if (!call) {
      const abandoned = nowMs - Date.parse(t.claimedAt ?? now) > ABANDONED_CLAIM_MS;
      // The placeholder makes a late write of that call fail, so giving the claim back can never double-dial.
      // Not written: the call was written meanwhile (its end accounts for it), or another scheduler wrote
      // the placeholder (and gives the claim back; so does this one at its next pass, below).
      if (abandoned && (await tombstoneCall(deps.db, c.workspaceId, t.callId!, now))) await unclaimDial(deps.db, t, t.callId!, now, now);
      continue;
    }
    if (call === 'tombstone') {
      // Another scheduler's placeholder for an abandoned claim: the claim goes back, not as a failed attempt
      // (read as a failed call, a second scheduler counted the claim as an attempt and kept its id in the
      // results). Given back once: unclaimDial holds only while the target is still on this call.
      await unclaimDial(deps.db, t, t.callId!, now, now);
      continue;
    }
    if (call.settledAt === undefined) continue;
    const outcome = outcomeOfCall(call);
    const retryAt = retryAfter(c.retry, outcome, (t.tries[outcome] ?? 0) + 1, nowMs);
    // A cancelled or ended campaign retries nobody.
    const nextAt = retryAt !== undefined && ['scheduled', 'running', 'paused'].includes(c.status) ? new Date(retryAt).toISOString() : undefined;
    if (await finishDial(deps.db, t, t.callId!, { outcome, nextAt, now })) finished += 1;
  }
  return finished;
}

/** Moves a campaign by its schedule and its targets; the campaign as it now stands (undefined: gone). */
async function advance(deps: SchedulerDeps, listed: Campaign, nowMs: number): Promise<Campaign | undefined> {
  let c = await findCampaign(deps.db, listed.workspaceId, listed._id);
  if (!c) return undefined;
  const now = new Date(nowMs).toISOString();
  const move = async (from: Campaign['status'][], to: Campaign['status'], reason?: string) =>
    (await transitionCampaign(deps.db, c!.workspaceId, c!._id, { from, to, reason, now })) ?? (await findCampaign(deps.db, c!.workspaceId, c!._id));
  const ended = c.schedule.endAt !== undefined && nowMs >= Date.parse(c.schedule.endAt);
  if (ended && ['scheduled', 'running', 'paused'].includes(c.status)) c = await move(['scheduled', 'running', 'paused'], 'completed', 'schedule_ended');
  else if (c.status === 'scheduled' && (!c.schedule.startAt || nowMs >= Date.parse(c.schedule.startAt))) c = await move(['scheduled'], 'running');
  if (c?.status === 'running' && c.open === 0) c = await move(['running'], 'completed');
  if (c && (c.status === 'completed' || c.status === 'cancelled') && c.inFlight === 0) await retireCampaign(deps.db, c.workspaceId, c._id);
  return c;
}

/** What a tick needs to dial one campaign's contacts, read once per tick. */
interface DialContext {
  readonly agent: Agent;
  /** The published version `agent` is, when it has been published. */
  readonly agentVersion?: number | undefined;
  readonly numbers: readonly PhoneNumber[];
  readonly variables: readonly string[];
  readonly opening: Map<string, number | undefined>;
}

async function dialContext(deps: SchedulerDeps, c: Campaign): Promise<DialContext | undefined> {
  const found = await findAgent(deps.db, c.workspaceId, c.agentId);
  // The campaign's pinned version, else the agent's latest published one (a publish reaches the next tick).
  const run = found && (await agentToRun(deps.db, c.workspaceId, found, c.agent_version).catch(() => undefined));
  const agent = run?.agent;
  const numbers = (await Promise.all(c.phoneNumberIds.map((id) => getPhoneNumber(deps.db, c.workspaceId, id).catch(() => undefined)))).filter(
    (n): n is PhoneNumber => n !== undefined && n.status === 'active',
  );
  if (!agent || numbers.length === 0) return undefined;
  return { agent, agentVersion: run.version, numbers, variables: agentVariables(agent), opening: new Map() };
}

/** Claims and dials due targets until the campaign's slots, the account's rate or the due targets run out. */
async function dialDue(deps: SchedulerDeps, c: Campaign, clock: () => number, dialsPerSecond: number): Promise<number> {
  const slots = c.concurrency - c.inFlight;
  if (slots <= 0) return 0;
  const due = await dueTargets(deps.db, c._id, new Date(clock()).toISOString(), slots * READ_AHEAD);
  if (due.length === 0) return 0;
  const ctx = await dialContext(deps, c);
  if (!ctx) {
    await transitionCampaign(deps.db, c.workspaceId, c._id, { from: ['running'], to: 'paused', reason: 'agent_or_number_missing', now: new Date(clock()).toISOString() });
    return 0;
  }
  const placing: Promise<boolean>[] = [];
  for (const [i, t] of due.entries()) {
    const step = await prepare(deps, c, ctx, t, clock());
    if (step === 'next') continue;
    const nowMs = clock();
    const callId = newId('call', nowMs);
    const claim = await claimDial(deps.db, {
      target: t,
      callId,
      now: new Date(nowMs).toISOString(),
      lockExpiresAt: Math.floor(nowMs / 1000) + agentPricing(deps.config, ctx.agent).maxDurationSeconds + 120,
      rate: { partition: ACCOUNT_PARTITION, startMs: Math.floor(nowMs / 1000) * 1000, limit: dialsPerSecond },
    });
    if (claim === 'campaign' || claim === 'rate') break;
    if (claim === 'do_not_call') await skipTarget(deps.db, t, 'do_not_call', new Date(nowMs).toISOString());
    if (claim === 'locked') await deferTarget(deps.db, t, new Date(nowMs + NUMBER_BUSY_RETRY_MS).toISOString());
    if (claim !== 'claimed') continue;
    placing.push(place(deps, c, ctx, t, callId, ctx.numbers[(c.dials + i) % ctx.numbers.length]!, clock));
  }
  const placed = await Promise.all(placing);
  return placed.filter(Boolean).length;
}

/**
 * Checks a due target before its claim: variables (the agent may have changed since creation) and the
 * calling window in the contact's zones; a target that cannot be dialed now is skipped or deferred.
 */
async function prepare(deps: SchedulerDeps, c: Campaign, ctx: DialContext, t: CampaignTarget, nowMs: number): Promise<'dial' | 'next'> {
  const now = new Date(nowMs).toISOString();
  const missing = missingVariables(ctx.variables, targetVariables(t, c.variables));
  if (missing.length > 0) {
    await skipTarget(deps.db, t, 'missing_variables', now, missing);
    return 'next';
  }
  if (isOpen(c.callingWindow, t.zones, nowMs)) return 'dial';
  const zoneKey = t.zones.join(',');
  if (!ctx.opening.has(zoneKey)) ctx.opening.set(zoneKey, nextOpen(c.callingWindow, t.zones, nowMs));
  const at = ctx.opening.get(zoneKey);
  if (at === undefined) await skipTarget(deps.db, t, 'no_calling_hours', now);
  else await deferTarget(deps.db, t, new Date(at).toISOString());
  return 'next';
}

/**
 * Places one claimed dial through the API's call path (credits reserved as for any call). Out of credits:
 * the claim is given back and the campaign pauses itself (`insufficient_credits`) instead of failing
 * every remaining contact. Any other failure before the call exists gives the claim back too.
 */
async function place(deps: SchedulerDeps, c: Campaign, ctx: DialContext, t: CampaignTarget, callId: string, from: PhoneNumber, clock: () => number): Promise<boolean> {
  const claimed: CampaignTarget = { ...t, callIds: [...t.callIds, callId] };
  try {
    const placed = await placeOutboundCall(deps, {
      workspaceId: c.workspaceId,
      agent: ctx.agent,
      ...(ctx.agentVersion !== undefined && { agentVersion: ctx.agentVersion }),
      from,
      to: t.phoneNumber,
      contact: { _id: t.contactId, contactName: t.contactName },
      callId,
      campaignId: c._id,
      nowMs: clock(),
      variables: targetVariables(t, c.variables),
    });
    if (placed.kind === 'started') return true;
    const now = new Date(clock()).toISOString();
    await unclaimDial(deps.db, claimed, callId, now, now);
    await transitionCampaign(deps.db, c.workspaceId, c._id, { from: ['running', 'scheduled'], to: 'paused', reason: 'insufficient_credits', now });
    return false;
  } catch (error) {
    log('warn', 'campaign dial failed', { campaignId: c._id, callId, error: describeError(error) });
    // A call that was written is accounted for by its end (a failed dispatch ends it `failed`).
    if (!(await findCall(deps.db, c.workspaceId, callId))) {
      const now = clock();
      await unclaimDial(deps.db, claimed, callId, new Date(now + NUMBER_BUSY_RETRY_MS).toISOString(), new Date(now).toISOString());
    }
    return false;
  }
}
