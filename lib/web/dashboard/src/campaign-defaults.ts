import type { Schemas } from './api.js';

/**
 * The campaign API's defaults (lib/domain/campaign.ts and calling-window.ts), shown prefilled in the create
 * form. The values are copied, not imported, so the page's bundle carries no zod (test/unit/dashboard-helpers.test.ts
 * checks they are the API's); their types are the OpenAPI document's, so a renamed day or outcome fails to compile.
 */

type Campaign = Schemas['CampaignDetail'];
export type Weekday = Campaign['callingWindow']['days'][number];
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const satisfies readonly Weekday[];
export const WEEKDAY_LABEL: Record<Weekday, string> = { sun: 'Sunday', mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday' };

export const DEFAULT_WINDOW = { start: '09:00', end: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] as Weekday[] };
export const DEFAULT_CONCURRENCY = 5;

export type RetriedOutcome = keyof Campaign['retry'];
export const RETRIED_OUTCOMES = ['no_answer', 'busy', 'voicemail', 'failed'] as const satisfies readonly RetriedOutcome[];
export type RetryRule = Campaign['retry'][RetriedOutcome];
export const DEFAULT_RETRY: Record<RetriedOutcome, RetryRule> = {
  no_answer: { retries: 2, delayMinutes: 60 },
  busy: { retries: 2, delayMinutes: 15 },
  voicemail: { retries: 1, delayMinutes: 240 },
  failed: { retries: 1, delayMinutes: 30 },
};

export type Outcome = keyof Campaign['progress']['outcomes'];
export const OUTCOMES = ['answered', 'voicemail', 'busy', 'no_answer', 'failed'] as const satisfies readonly Outcome[];
export const OUTCOME_LABEL: Record<Outcome, string> = { answered: 'Answered', voicemail: 'Voicemail', busy: 'Busy', no_answer: 'No answer', failed: 'Failed' };

export const STATUS_LABEL: Record<Campaign['status'], string> = { draft: 'Draft', scheduled: 'Scheduled', running: 'Running', paused: 'Paused', completed: 'Completed', cancelled: 'Cancelled' };
/** Which actions a status allows (the API's TRANSITIONS). */
export const ACTIONS = {
  start: ['draft'],
  pause: ['scheduled', 'running'],
  resume: ['paused'],
  cancel: ['draft', 'scheduled', 'running', 'paused'],
} as const satisfies Record<string, readonly string[]>;
export type CampaignAction = keyof typeof ACTIONS;
/** Statuses in which a campaign changes by itself, so its page refreshes. */
export const LIVE_STATUSES = ['scheduled', 'running', 'paused'];
