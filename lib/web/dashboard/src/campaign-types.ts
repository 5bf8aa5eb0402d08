import type { Outcome, RetriedOutcome, RetryRule, Weekday } from './campaign-defaults.js';

/** What the campaign routes answer (lib/domain/campaign.ts, CampaignDetail and friends). */

export type Counts = Record<Outcome, number>;

export interface CampaignListItem {
  readonly _id: string;
  readonly name: string;
  readonly agentId: string;
  readonly status: string;
  readonly statusReason?: string;
  readonly createdAt: string;
}

export interface CampaignDetail extends CampaignListItem {
  readonly phoneNumberIds: string[];
  readonly contacts: { contactIds?: string[]; search?: string; importId?: string };
  readonly schedule: { startAt?: string; endAt?: string };
  readonly callingWindow: { start: string; end: string; days: Weekday[]; timeZone?: string };
  readonly concurrency: number;
  readonly retry: Record<RetriedOutcome, RetryRule>;
  readonly progress: {
    status: string;
    statusReason?: string;
    contacts: { total: number; pending: number; inFlight: number; finished: number; skipped: number };
    outcomes: Counts;
    attempts: Counts;
    nextAttempts: { contactId: string; at: string }[];
  };
}

export interface CampaignResult {
  readonly contactId: string;
  readonly contactName: string;
  readonly phoneNumber: string;
  readonly state: 'pending' | 'dialing' | 'done' | 'skipped';
  readonly attempts: number;
  readonly lastOutcome?: Outcome;
  readonly callIds: string[];
  readonly nextAttemptAt?: string;
  readonly skipReason?: string;
  readonly missingVariables?: string[];
}
