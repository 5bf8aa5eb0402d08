import * as z from 'zod';
import { BodyWorkspaceId, Timestamp, WorkspaceIdField } from './common.js';
import { ValidationError } from './errors.js';
import { normalizePhone } from './phone.js';

/**
 * Phone numbers of a workspace: bought through the platform's telephony account, or imported from the
 * customer's own account (bring your own telephony, `type: "byot"`). A number belongs to at most one
 * workspace at a time.
 */

/** The only state a number is ever in while it exists (API_SPEC: `active` after buy and import). */
export const PHONE_NUMBER_STATUS = 'active' as const;

/** Where a number's voice calls went before we imported it; restored when it is released. */
export interface PriorRouting {
  readonly voiceUrl: string | null;
  readonly voiceMethod: string | null;
  readonly statusCallback: string | null;
  readonly statusCallbackMethod: string | null;
}

/** The stored number (the sealed BYOT auth token is kept by the store, never here). */
export interface PhoneNumber {
  _id: string;
  /** E.164. */
  number: string;
  status: typeof PHONE_NUMBER_STATUS;
  /** `byot` for imported numbers; absent for numbers bought through the platform. */
  type?: 'byot';
  workspaceId: string;
  /** The agent that answers inbound calls, or null (callers hear a short message). */
  agentId: string | null;
  /** The agent's published version inbound calls run; absent or null: its latest (docs/agent-versions.md). */
  agentVersion?: number | null;
  /** The provider's id of the number (Twilio: PN…). */
  providerSid: string;
  /** The provider account holding the number: the platform's, or the customer's for BYOT. */
  telephonyAccountSid: string;
  priorRouting?: PriorRouting;
  /** Asked before each inbound call is answered (docs/telephony.md, "Inbound webhook"). */
  inboundWebhookUrl?: string;
  createdAt: string;
  updatedAt: string;
}

const Sid = (prefix: string, what: string) =>
  z.string().trim().regex(new RegExp(`^${prefix}[0-9a-fA-F]{32}$`), `${what} starts with ${prefix} followed by 32 hex characters`);

const PhoneInput = z.string().trim().min(1).max(40);

/** Checked further (https, no private address) by the service, as webhook endpoints are. */
const InboundWebhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(2_000)
  .describe('Asked before each inbound call is answered: it may pick the agent, give variables, agent_overrides and metadata, or reject the call (docs/telephony.md)');

/** POST /api/phone-numbers/buy. */
export const PhoneNumberBuy = z
  .strictObject({
    /** A number from GET /api/phone-numbers/available, E.164. */
    phoneNumber: PhoneInput,
    inbound_webhook_url: InboundWebhookUrl.optional(),
    workspaceId: BodyWorkspaceId,
  })
  .meta({ id: 'PhoneNumberBuy' });
export type PhoneNumberBuy = z.infer<typeof PhoneNumberBuy>;

/** POST /api/phone-numbers/import (bring your own telephony). */
export const PhoneNumberImport = z
  .strictObject({
    phoneNumber: PhoneInput,
    telephonyAccountSid: Sid('AC', 'an account sid'),
    /** Twilio auth tokens are 32 hex characters; the bound is loose so a format change does not lock users out. */
    telephonyAuthToken: z.string().trim().min(16).max(128),
    inbound_webhook_url: InboundWebhookUrl.optional(),
    workspaceId: BodyWorkspaceId,
  })
  .meta({ id: 'PhoneNumberImport' });
export type PhoneNumberImport = z.infer<typeof PhoneNumberImport>;

/**
 * PATCH /api/phone-numbers/{id}: assign the agent that answers inbound calls (null unassigns), and/or set
 * the inbound webhook (null removes it); at least one of the two.
 */
export const PhoneNumberUpdate = z
  .strictObject({
    agentId: z.string().min(1).max(64).nullable().optional(),
    inbound_webhook_url: InboundWebhookUrl.nullable().optional(),
    /** Pins the published version of the agent inbound calls run; null: its latest. Changing `agentId` without it unpins. */
    agent_version: z.number().int().min(1).max(1_000_000).nullable().optional(),
    workspaceId: WorkspaceIdField.optional(),
  })
  .refine((u) => u.agentId !== undefined || u.inbound_webhook_url !== undefined || u.agent_version !== undefined, { message: 'give agentId, agent_version or inbound_webhook_url' })
  .meta({ id: 'PhoneNumberUpdate' });
export type PhoneNumberUpdate = z.infer<typeof PhoneNumberUpdate>;

/** GET /api/phone-numbers/available query. */
export const AvailableNumbersQuery = z.object({
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'country is an ISO 3166-1 alpha-2 code such as US')
    .default('US'),
  areaCode: z.string().trim().regex(/^\d{3}$/, 'areaCode is three digits, for example 415').optional(),
  /** Twilio's pattern: digits, letters (keypad) and `*` for any digit. */
  contains: z.string().trim().regex(/^[0-9A-Za-z*]{1,16}$/, 'contains is up to 16 digits, letters or *').optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type AvailableNumbersQuery = z.infer<typeof AvailableNumbersQuery>;

/** One number for sale. */
export const AvailableNumberView = z
  .object({
    number: z.string(),
    friendlyName: z.string(),
    locality: z.string().nullable(),
    region: z.string().nullable(),
    postalCode: z.string().nullable(),
    country: z.string(),
    capabilities: z.object({ voice: z.boolean(), sms: z.boolean(), mms: z.boolean() }),
  })
  .meta({ id: 'AvailablePhoneNumber' });

/** The buy response, exactly as API_SPEC.md lists it (no `type`). */
export const PhoneNumberBought = z
  .object({ _id: z.string(), number: z.string(), status: z.literal(PHONE_NUMBER_STATUS), workspaceId: z.string() })
  .meta({ id: 'PhoneNumberBought' });

/** The import response, exactly as API_SPEC.md lists it. */
export const PhoneNumberImported = z
  .object({ ...PhoneNumberBought.shape, type: z.literal('byot') })
  .meta({ id: 'PhoneNumberImported' });

/**
 * What get, list and update show. `type` is present only for imported numbers (as in the buy and import
 * responses); `telephonyAccountSid` only for imported numbers (the customer's own account id: not a
 * secret, and it says which account the number lives in). The auth token is never shown.
 */
export const PhoneNumberView = z
  .object({
    ...PhoneNumberBought.shape,
    type: z.literal('byot').optional(),
    agentId: z.string().nullable(),
    /** The pinned published version of the agent (docs/agent-versions.md); null: its latest. */
    agent_version: z.number().int().nullable(),
    telephonyAccountSid: z.string().optional(),
    inbound_webhook_url: z.string().optional(),
    /** Only in the answer of the update that set the URL: the Standard Webhooks secret its requests are signed with. */
    inbound_webhook_secret: z.string().optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'PhoneNumber' });
export type PhoneNumberView = z.infer<typeof PhoneNumberView>;

/** The public view of a stored number: the platform's own account sid stays internal. */
export function toPhoneNumberView(n: PhoneNumber): PhoneNumberView {
  return {
    _id: n._id,
    number: n.number,
    status: n.status,
    ...(n.type === 'byot' ? { type: 'byot' as const, telephonyAccountSid: n.telephonyAccountSid } : {}),
    workspaceId: n.workspaceId,
    agentId: n.agentId,
    agent_version: n.agentVersion ?? null,
    ...(n.inboundWebhookUrl ? { inbound_webhook_url: n.inboundWebhookUrl } : {}),
    createdAt: n.createdAt,
    updatedAt: n.updatedAt,
  };
}

/** E.164 for a number the caller typed, or a validation error naming the field. */
export function e164Of(input: string, field = 'phoneNumber'): string {
  const phone = normalizePhone(input);
  if (!phone) throw new ValidationError([{ field, message: 'not a phone number in E.164 form, for example +14155550100' }]);
  return phone.e164;
}
