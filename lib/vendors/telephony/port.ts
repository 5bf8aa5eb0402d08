import { VendorError } from '../shared/errors.js';

/**
 * The telephony port: what the platform asks of a telephony provider. Every operation names the account it
 * acts for, because numbers live either in the platform's own account or in a customer's (bring your own
 * telephony), and one process serves both.
 */
export interface TelephonyAccount {
  readonly accountSid: string;
  readonly authToken: string;
}

export interface AvailableNumberQuery {
  /** ISO 3166-1 alpha-2, for example US. */
  readonly country: string;
  readonly areaCode?: string;
  /** Digits (or letters, or `*` for any digit) the number must contain. */
  readonly contains?: string;
  readonly limit?: number;
}

/** A number the provider offers for sale. */
export interface AvailableNumber {
  /** E.164. */
  readonly number: string;
  readonly friendlyName: string;
  readonly locality: string | null;
  readonly region: string | null;
  readonly postalCode: string | null;
  readonly country: string;
  readonly capabilities: { readonly voice: boolean; readonly sms: boolean; readonly mms: boolean };
}

/** A number held in a provider account, with its voice routing. Empty settings are null. */
export interface ProviderNumber {
  /** The provider's id of the number (Twilio: PN…). */
  readonly sid: string;
  readonly accountSid: string;
  /** E.164. */
  readonly number: string;
  readonly voiceUrl: string | null;
  readonly voiceMethod: string | null;
  readonly statusCallback: string | null;
  readonly statusCallbackMethod: string | null;
  /** When set, the provider runs this application instead of calling `voiceUrl`. */
  readonly voiceApplicationSid: string | null;
  /** When set, calls go to this SIP trunk instead of `voiceUrl`. */
  readonly trunkSid: string | null;
}

/** Where the provider sends a number's calls. `null` clears a setting; an absent field is left alone. */
export interface NumberRouting {
  readonly voiceUrl?: string | null;
  /** How the provider calls `voiceUrl`; POST unless given. */
  readonly voiceMethod?: string;
  readonly statusCallback?: string | null;
  /** How the provider calls `statusCallback`; POST unless given. */
  readonly statusCallbackMethod?: string;
  readonly voiceApplicationSid?: null;
  readonly trunkSid?: null;
}

export type CallStatus = 'queued' | 'ringing' | 'in-progress' | 'completed' | 'busy' | 'failed' | 'no-answer' | 'canceled';

export interface CreateCallRequest {
  /** E.164 destination. */
  readonly to: string;
  /** E.164 number of the account the call is placed from. */
  readonly from: string;
  /** Where the provider fetches call instructions; exactly one of `url` and `twiml`. */
  readonly url?: string;
  readonly twiml?: string;
  readonly statusCallback?: string;
  readonly statusCallbackEvents?: readonly ('initiated' | 'ringing' | 'answered' | 'completed')[];
  /** Ring time before giving up. */
  readonly timeoutSeconds?: number;
  /** Longest the call may last. */
  readonly timeLimitSeconds?: number;
  readonly record?: boolean;
  readonly machineDetection?: 'Enable' | 'DetectMessageEnd';
  /**
   * Asynchronous detection: the call is connected at once and the verdict (`AnsweredBy`) is posted to
   * `asyncAmdStatusCallback` later, so a human never waits in silence while the provider listens.
   */
  readonly asyncAmdStatusCallback?: string;
  /** How long the provider listens before answering `unknown` (Twilio: 3..59 s, default 30). */
  readonly machineDetectionTimeoutSeconds?: number;
}

export interface UpdateCallRequest {
  /** New instructions for a live call, for example a transfer. */
  readonly twiml?: string;
  readonly url?: string;
  /** `completed` hangs up a live call; `canceled` stops one that has not been answered. */
  readonly status?: 'completed' | 'canceled';
}

export interface ProviderCall {
  readonly sid: string;
  readonly accountSid: string;
  readonly to: string;
  readonly from: string;
  readonly status: CallStatus;
  readonly direction: string;
  /** Seconds, once the call has ended. */
  readonly durationSeconds: number | null;
}

export interface TelephonyPort {
  /** Numbers for sale in a country, optionally near an area code or containing a pattern. */
  searchAvailable(account: TelephonyAccount, query: AvailableNumberQuery): Promise<AvailableNumber[]>;
  /** Buys a number into the account, routed as given. */
  buyNumber(account: TelephonyAccount, number: string, routing: NumberRouting): Promise<ProviderNumber>;
  /**
   * The account's number with exactly this E.164 value, or undefined. Doubles as the credential check:
   * wrong credentials fail with kind `auth`.
   */
  findNumber(account: TelephonyAccount, number: string): Promise<ProviderNumber | undefined>;
  /** Changes where a number's calls go. */
  configureNumber(account: TelephonyAccount, sid: string, routing: NumberRouting): Promise<ProviderNumber>;
  /** Gives a number back to the provider. */
  releaseNumber(account: TelephonyAccount, sid: string): Promise<void>;
  createCall(account: TelephonyAccount, request: CreateCallRequest): Promise<ProviderCall>;
  updateCall(account: TelephonyAccount, sid: string, request: UpdateCallRequest): Promise<ProviderCall>;
  fetchCall(account: TelephonyAccount, sid: string): Promise<ProviderCall>;
}

/**
 * Why a telephony operation failed:
 * - `auth`: the account sid or token is wrong (never retryable);
 * - `not_found`: no such number or call in the account (or a call that has already ended);
 * - `unavailable`: the number cannot be bought (taken, or none in that area);
 * - `invalid`: the provider refused the input;
 * - `rate_limited`, `provider_error`, `network`: transient, retryable.
 */
export type TelephonyErrorKind = 'auth' | 'not_found' | 'unavailable' | 'invalid' | 'rate_limited' | 'provider_error' | 'network';

export class TelephonyError extends VendorError {
  readonly kind: TelephonyErrorKind;
  /** The provider's own error code, for example Twilio's 20404. */
  readonly vendorCode?: number;

  constructor(
    message: string,
    init: { vendor: string; kind: TelephonyErrorKind; status?: number; vendorCode?: number; cause?: unknown },
  ) {
    const retryable = init.kind === 'rate_limited' || init.kind === 'provider_error' || init.kind === 'network';
    super(init.vendor, message, retryable, init.status, { cause: init.cause });
    this.name = 'TelephonyError';
    this.kind = init.kind;
    this.vendorCode = init.vendorCode;
  }
}

export const isTelephonyError = (error: unknown, kind?: TelephonyErrorKind): error is TelephonyError =>
  error instanceof TelephonyError && (kind === undefined || error.kind === kind);

/**
 * A port for entry points built without a telephony adapter: every operation fails loudly, naming the fix,
 * instead of a handler silently reaching a vendor SDK its bundle does not contain.
 */
export function unavailableTelephonyPort(): TelephonyPort {
  const refuse = async (): Promise<never> => {
    throw new Error('This entry point was built without a telephony adapter: wrap its deps with withTelephony (lib/deps.ts)');
  };
  return {
    searchAvailable: refuse,
    buyNumber: refuse,
    findNumber: refuse,
    configureNumber: refuse,
    releaseNumber: refuse,
    createCall: refuse,
    updateCall: refuse,
    fetchCall: refuse,
  };
}
