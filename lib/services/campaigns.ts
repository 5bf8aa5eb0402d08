import type { Deps } from '../deps.js';
import type { Agent } from '../domain/agent.js';
import { nextOpen, zonesOfRegion, isTimeZone, type CallingWindow } from '../domain/calling-window.js';
import {
  MAX_CAMPAIGN_CONTACTS,
  TRANSITIONS,
  missingVariables,
  zeroCounts,
  type Campaign,
  type CampaignAction,
  type CampaignCreate,
  type CampaignTarget,
  type ContactSelection,
  type SkipReason,
} from '../domain/campaign.js';
import type { Page } from '../domain/common.js';
import type { Contact } from '../domain/contact.js';
import { ConflictError, ValidationError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { normalizePhone } from '../domain/phone.js';
import { contactVariables } from '../domain/template.js';
import { agentRequiredVariables } from '../domain/call-template.js';
import { getAgent } from '../store/agents.js';
import { agentToRunById } from './agent-runtime.js';
import { getCampaign, listCampaigns, listTargets, putNewCampaign, transitionCampaign, upcomingTargets } from '../store/campaigns.js';
import { contactsById, contactsMatching, contactsOfImport } from '../store/contacts.js';
import type { Db, PageRequest } from '../store/dynamo.js';
import { fromItem } from '../store/model.js';
import { getPhoneNumber } from '../store/phone-numbers.js';

/**
 * Campaigns as the API sees them: create (contacts resolved, each checked for its variables and calling
 * hours), start, pause, resume, cancel, progress and per-contact results (docs/campaigns.md). Dialing is
 * the scheduler's (lib/services/campaign-scheduler.ts).
 */

type CampaignDeps = Pick<Deps, 'db'>;

/** The `{{variables}}` an agent's texts name with no default (its tools are checked at no campaign step: they may change). */
export const agentVariables = (agent: Agent) => agentRequiredVariables(agent);

/**
 * A target's variables: the campaign's defaults under the contact's own fields, from the snapshot taken
 * when the campaign was created. Each call of the target carries them as its `variables`.
 */
export const targetVariables = (t: Pick<CampaignTarget, 'contactId' | 'contactName' | 'phoneNumber' | 'externalFields'>, defaults?: Campaign['variables']) => ({
  ...Object.fromEntries(Object.entries(defaults ?? {}).map(([k, v]) => [k, String(v)])),
  ...contactVariables({ _id: t.contactId, contactName: t.contactName, phoneNumber: t.phoneNumber, externalFields: t.externalFields } as Contact),
});

/** The zones a contact's calling window is read in: the campaign's zone, the contact's `timeZone`, else its number's country's. */
export function zonesFor(window: { timeZone?: string }, contact: Pick<Contact, 'phoneNumber' | 'externalFields'>): string[] {
  if (window.timeZone) return [window.timeZone];
  const own = contact.externalFields.timeZone ?? contact.externalFields.timezone;
  if (typeof own === 'string' && isTimeZone(own)) return [own];
  const region = normalizePhone(contact.phoneNumber)?.region;
  return region ? zonesOfRegion(region) : [];
}

/** Reads the contacts a selection names; unknown ids are a 400 naming them, more than the cap a 400. */
async function selectContacts(db: Db, ws: string, selection: ContactSelection): Promise<Contact[]> {
  const tooMany = () =>
    new ValidationError([{ field: 'contacts', message: `a campaign takes at most ${MAX_CAMPAIGN_CONTACTS} contacts; narrow the selection` }]);
  if ('contactIds' in selection) {
    const found = await contactsById(db, ws, selection.contactIds);
    const unknown = [...new Set(selection.contactIds)].filter((id) => !found.has(id));
    if (unknown.length > 0) {
      throw new ValidationError([{ field: 'contacts.contactIds', message: `no such contact in this workspace: ${unknown.slice(0, 10).join(', ')}` }]);
    }
    return [...found.values()];
  }
  const source = 'search' in selection ? contactsMatching(db, ws, selection.search) : contactsOfImport(db, ws, selection.importId);
  const contacts: Contact[] = [];
  for await (const item of source) {
    if (contacts.length >= MAX_CAMPAIGN_CONTACTS) throw tooMany();
    contacts.push(fromItem<Contact>(item));
  }
  if (contacts.length === 0) throw new ValidationError([{ field: 'contacts', message: 'the selection matches no contact' }]);
  return contacts;
}

/** Memoised by zone set: every contact of one country shares the answer. */
function openingFinder(window: CallingWindow, fromMs: number) {
  const memo = new Map<string, number | undefined>();
  return (zones: readonly string[]) => {
    const k = zones.join(',');
    if (!memo.has(k)) memo.set(k, zones.length === 0 ? undefined : nextOpen(window, zones, fromMs));
    return memo.get(k);
  };
}

/** A new target for a contact, pending from `startMs` or skipped with the reason it can never be called. */
function targetOf(c: Campaign, contact: Contact, names: readonly string[], opening: (zones: readonly string[]) => number | undefined, startIso: string): CampaignTarget {
  const zones = zonesFor(c.callingWindow, contact);
  const missing = missingVariables(names, { ...targetVariables({ contactId: contact._id, ...contact }, c.variables) });
  let skipReason: SkipReason | undefined;
  if (!normalizePhone(contact.phoneNumber)) skipReason = 'invalid_number';
  else if (missing.length > 0) skipReason = 'missing_variables';
  else if (opening(zones) === undefined) skipReason = 'no_calling_hours';
  return {
    campaignId: c._id,
    workspaceId: c.workspaceId,
    contactId: contact._id,
    contactName: contact.contactName,
    phoneNumber: contact.phoneNumber,
    externalFields: contact.externalFields,
    zones,
    state: skipReason ? 'skipped' : 'pending',
    ...(skipReason ? { skipReason } : { nextAttemptAt: startIso }),
    ...(skipReason === 'missing_variables' ? { missingVariables: missing } : {}),
    attempts: 0,
    tries: {},
    callIds: [],
  };
}

/**
 * Creates a campaign in `draft`: checks the agent and the numbers (404), resolves its contacts, and takes
 * each in as a target, skipped at once (and reported in its results) when its number is invalid, a
 * `{{variable}}` of the agent's prompt or first message has no value for it, or its calling hours never open.
 */
export async function createCampaign(deps: CampaignDeps, ws: string, input: CampaignCreate): Promise<Campaign & { progress: CampaignProgressView }> {
  const [run] = await Promise.all([agentToRunById(deps.db, ws, input.agentId, input.agent_version), ...input.phoneNumberIds.map((id) => getPhoneNumber(deps.db, ws, id))]);
  const agent = run.agent;
  const contacts = await selectContacts(deps.db, ws, input.contacts);
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const campaign: Campaign = {
    _id: newId('campaign', nowMs),
    workspaceId: ws,
    name: input.name,
    agentId: input.agentId,
    ...(input.agent_version !== undefined ? { agent_version: input.agent_version } : {}),
    contacts: input.contacts,
    schedule: input.schedule,
    callingWindow: input.callingWindow,
    concurrency: input.concurrency,
    retry: input.retry,
    ...(input.variables ? { variables: input.variables } : {}),
    phoneNumberIds: [...new Set(input.phoneNumberIds)],
    status: 'draft',
    total: contacts.length,
    open: 0,
    skipped: 0,
    inFlight: 0,
    attempts: zeroCounts(),
    outcomes: zeroCounts(),
    dials: 0,
    createdAt: now,
    updatedAt: now,
  };
  const startMs = Math.max(nowMs, input.schedule.startAt ? Date.parse(input.schedule.startAt) : nowMs);
  const opening = openingFinder(campaign.callingWindow, startMs);
  const names = agentVariables(agent);
  const targets = contacts.map((contact) => targetOf(campaign, contact, names, opening, new Date(startMs).toISOString()));
  campaign.skipped = targets.filter((t) => t.state === 'skipped').length;
  campaign.open = campaign.total - campaign.skipped;
  await putNewCampaign(deps.db, campaign, targets);
  return { ...campaign, progress: await progressOf(deps, campaign) };
}

export class CampaignStateError extends ConflictError {
  constructor(action: CampaignAction, status: string) {
    super('invalid_campaign_state', `A ${status} campaign cannot be asked to ${action}.`, [
      { field: 'status', message: `${action} needs a campaign that is ${TRANSITIONS[action].from.join(' or ')}; this one is ${status}` },
    ]);
  }
}

/**
 * Moves a campaign along its lifecycle: start (draft → scheduled; its agent and numbers must still exist),
 * pause, resume (paused → scheduled, the scheduler runs it again from its start time), cancel. A move from
 * the wrong status is a 409 and changes nothing.
 */
export async function actOnCampaign(deps: CampaignDeps, ws: string, id: string, action: CampaignAction): Promise<Campaign & { progress: CampaignProgressView }> {
  const before = await getCampaign(deps.db, ws, id);
  if (action === 'start') {
    await Promise.all([getAgent(deps.db, ws, before.agentId), ...before.phoneNumberIds.map((n) => getPhoneNumber(deps.db, ws, n))]).catch(() => {
      throw new ConflictError('campaign_not_startable', "The campaign's agent or one of its phone numbers no longer exists.");
    });
  }
  const { from, to } = TRANSITIONS[action];
  const after = await transitionCampaign(deps.db, ws, id, { from, to, now: new Date().toISOString() });
  if (!after) throw new CampaignStateError(action, (await getCampaign(deps.db, ws, id)).status);
  return { ...after, progress: await progressOf(deps, after) };
}

export interface CampaignProgressView {
  status: Campaign['status'];
  statusReason?: string;
  contacts: { total: number; pending: number; inFlight: number; finished: number; skipped: number };
  outcomes: Campaign['outcomes'];
  attempts: Campaign['attempts'];
  nextAttempts: { contactId: string; at: string }[];
}

/** Where a campaign stands: counts per outcome, calls in flight, and the next contacts due. */
export async function progressOf(deps: CampaignDeps, c: Campaign): Promise<CampaignProgressView> {
  const upcoming = c.status === 'completed' || c.status === 'cancelled' ? [] : await upcomingTargets(deps.db, c._id, 10);
  return {
    status: c.status,
    ...(c.statusReason ? { statusReason: c.statusReason } : {}),
    contacts: {
      total: c.total,
      pending: Math.max(0, c.open - c.inFlight),
      inFlight: c.inFlight,
      finished: c.total - c.open - c.skipped,
      skipped: c.skipped,
    },
    outcomes: c.outcomes,
    attempts: c.attempts,
    nextAttempts: upcoming.map((t) => ({ contactId: t.contactId, at: t.nextAttemptAt! })),
  };
}

/** GET /api/campaigns/{id}: the campaign and its progress. */
export async function campaignDetail(deps: CampaignDeps, ws: string, id: string) {
  const c = await getCampaign(deps.db, ws, id);
  return { ...c, progress: await progressOf(deps, c) };
}

export const campaignPage = (deps: CampaignDeps, ws: string, req: PageRequest) => listCampaigns(deps.db, ws, req);

/** A page of per-contact results with their call ids. */
export async function campaignResults(deps: CampaignDeps, ws: string, id: string, req: PageRequest & { state?: string }): Promise<Page<CampaignTarget>> {
  const c = await getCampaign(deps.db, ws, id);
  return listTargets(deps.db, c, req);
}
