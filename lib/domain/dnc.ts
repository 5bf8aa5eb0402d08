import * as z from 'zod';
import { BodyWorkspaceId, Timestamp } from './common.js';
import { ConflictError } from './errors.js';

/**
 * The workspace's do-not-call list (docs/campaigns.md, "Do not call"): numbers no campaign dials and the
 * phone-call API refuses unless the request says the call is consented (docs/calls.md). Entries come from
 * the API, a CSV upload, or a callee who asked the agent not to be called again (`opt_out`).
 */

export const DNC_SOURCES = ['api', 'upload', 'opt_out'] as const;

export const DncCreate = z
  .strictObject({
    phoneNumber: z.string().trim().min(1).max(40),
    reason: z.string().trim().max(200).optional(),
    workspaceId: BodyWorkspaceId,
  })
  .meta({ id: 'DncCreate' });
export type DncCreate = z.infer<typeof DncCreate>;

export interface DncEntry {
  phoneNumber: string;
  workspaceId: string;
  source: (typeof DNC_SOURCES)[number];
  reason?: string;
  /** The call in which the callee opted out. */
  callId?: string;
  createdAt: string;
}

export const DncView = z
  .object({
    phoneNumber: z.string(),
    source: z.enum(DNC_SOURCES),
    reason: z.string().optional(),
    callId: z.string().optional(),
    workspaceId: z.string(),
    createdAt: Timestamp,
  })
  .meta({ id: 'DncEntry' });

/** `{number}` in a path: E.164, its `+` written as is or as %2B. */
export const DncParams = z.object({ number: z.string().min(1).max(40) });

export const DncImportResult = z
  .object({ added: z.number().int(), existing: z.number().int(), errors: z.array(z.object({ row: z.number().int(), value: z.string(), message: z.string() })) })
  .meta({ id: 'DncImportResult' });
export type DncImportResult = z.infer<typeof DncImportResult>;

/**
 * The refusal of a phone call to a listed number (docs/calls.md, "Do not call"): 409 `do_not_call`, naming
 * the number and the history record the refusal left.
 */
export const doNotCallRefusal = (e164: string, callId: string) =>
  new ConflictError('do_not_call', `The call was not placed: ${e164} is on the workspace's do-not-call list.`, [
    {
      field: 'phoneNumber',
      message: `${e164} is on the workspace's do-not-call list; send "consentedCall": true only if this person agreed to this call`,
      phoneNumber: e164,
      callId,
    },
  ]);
