import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import { parseForm, twilioSignature, type FormParams } from '../../../vendors/telephony/twilio-webhook.js';

/**
 * A local stand-in for the slice of Twilio's REST API (2010-04-01) the platform calls: available-number
 * search, IncomingPhoneNumbers (list, buy, fetch, update, release) and Calls (create, update, fetch). It
 * speaks Twilio's wire format (paths, form-encoded bodies, HTTP Basic auth per account, JSON field names,
 * status codes, `{code, message, more_info, status}` errors), so the real `twilio` SDK runs against it
 * unchanged with only its base URL swapped.
 *
 * Two modes:
 * - strict (tests): only registered accounts authenticate, and an account holds only the numbers added to it
 *   or bought through it;
 * - sandbox (`npm start`): any well-formed pair (`AC` + 32 hex, token of 32 hex) authenticates (the first
 *   token seen for a sid becomes that account's token), and looking up an unowned E.164 number in an account
 *   puts it there, so bring-your-own-number imports work with made-up credentials.
 *
 * Placing calls (fetching TwiML, opening a Media Stream) belongs to a later issue: created calls are
 * recorded and handed to {@link CallHooks}, the seam where that behaviour plugs in.
 */

export interface StandinAccount {
  readonly sid: string;
  readonly authToken: string;
}

/** A number held by an account; field names follow the SDK's camelCase view of Twilio's resource. */
export interface StandinNumber {
  readonly sid: string;
  accountSid: string;
  readonly phoneNumber: string;
  friendlyName: string;
  voiceUrl: string;
  voiceMethod: string;
  voiceFallbackUrl: string;
  statusCallback: string;
  statusCallbackMethod: string;
  voiceApplicationSid: string;
  trunkSid: string | null;
  smsUrl: string;
  readonly dateCreated: string;
  dateUpdated: string;
}

export type StandinCallStatus = 'queued' | 'ringing' | 'in-progress' | 'completed' | 'busy' | 'failed' | 'no-answer' | 'canceled';

export interface StandinCall {
  readonly sid: string;
  readonly accountSid: string;
  readonly to: string;
  readonly from: string;
  readonly phoneNumberSid: string | null;
  status: StandinCallStatus;
  readonly direction: 'outbound-api' | 'inbound';
  /** Instructions: where to fetch TwiML, or TwiML given inline. */
  url: string | null;
  method: string;
  twiml: string | null;
  readonly statusCallback: string | null;
  readonly statusCallbackEvents: string[];
  readonly timeoutSeconds: number;
  readonly timeLimitSeconds: number | null;
  readonly record: boolean;
  readonly machineDetection: string | null;
  /** Asynchronous AMD: where the verdict is posted (`AsyncAmd=true`), else null. */
  readonly asyncAmdStatusCallback: string | null;
  readonly dateCreated: string;
  dateUpdated: string;
  startTime: string | null;
  endTime: string | null;
  duration: number | null;
}

/** One request as it arrived, for tests that assert what went on the wire. Never holds a token. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: FormParams;
  readonly form: FormParams;
  /** The account named in the Basic auth user, if any. */
  readonly authAccountSid?: string;
  readonly status: number;
}

/** The seam the calls issue fills in: what happens once a call exists. */
export interface CallHooks {
  /** A call was created through the REST API (dial out, fetch TwiML, stream...). */
  onCreate?(call: StandinCall, account: StandinAccount): void;
  /** A live call was redirected (`Url`/`Twiml`) or ended (`Status`). */
  onUpdate?(call: StandinCall, change: { url?: string; twiml?: string; status?: string }, account: StandinAccount): void;
}

export interface TwilioStandinOptions {
  /** Accept any well-formed credentials and hand out numbers on lookup (see the module comment). */
  readonly sandbox?: boolean;
  /** Keep accounts and numbers across restarts in this JSON file (`npm start` uses DATA_DIR). */
  readonly stateFile?: string;
  readonly hooks?: CallHooks;
  /** Defaults to 0: the OS picks a free port. */
  readonly port?: number;
}

export interface InboundResult {
  readonly callSid: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
}

export interface TwilioStandin {
  /** Origin to give the SDK (`TWILIO_API_BASE_URL`). */
  readonly baseUrl: string;
  readonly sandbox: boolean;
  /** Registers an account; a missing sid or token is generated. */
  addAccount(sid?: string, authToken?: string): StandinAccount;
  /** Puts a number in an account, with optional routing already set (for example a trunk). */
  addNumber(accountSid: string, phoneNumber: string, settings?: Partial<Pick<StandinNumber, 'voiceUrl' | 'statusCallback' | 'voiceApplicationSid' | 'trunkSid' | 'friendlyName'>>): StandinNumber;
  /** The number's current state, whoever holds it. */
  number(phoneNumber: string): StandinNumber | undefined;
  call(sid: string): StandinCall | undefined;
  /** Moves a call along, as the network would. */
  setCallStatus(sid: string, status: StandinCallStatus): StandinCall;
  /**
   * Rings one of the stand-in's numbers the way Twilio does on an inbound call: POSTs the signed voice
   * webhook to the number's `voiceUrl` and returns our answer (TwiML). No media flows yet.
   */
  ringInbound(phoneNumber: string, from: string, extra?: Record<string, string>): Promise<InboundResult>;
  /**
   * Makes the next `times` requests matching `method` (and `pathIncludes`, if given) fail with this status
   * and Twilio error code before reaching any resource, to test retries and error mapping.
   */
  injectFault(fault: { status: number; code: number; method?: string; pathIncludes?: string; times?: number }): void;
  /** Every request so far, oldest first. */
  readonly requests: readonly RecordedRequest[];
  clearRequests(): void;
  stop(): Promise<void>;
}

const API_VERSION = '2010-04-01';
const ACCOUNT_SID = /^AC[0-9a-f]{32}$/;
const AUTH_TOKEN = /^[0-9a-f]{32}$/;
const E164 = /^\+[1-9]\d{6,14}$/;
const TERMINAL: ReadonlySet<StandinCallStatus> = new Set(['completed', 'busy', 'failed', 'no-answer', 'canceled']);

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const newSid = (prefix: string) => `${prefix}${hex(16)}`;

/** Twilio's date format: RFC 2822 in GMT with a numeric zone, e.g. `Thu, 30 Jul 2015 20:00:00 +0000`. */
export function rfc2822(date: Date = new Date()): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

class TwilioFault extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const notFound = (path: string) => new TwilioFault(404, 20404, `The requested resource ${path} was not found`);

/**
 * Numbers the stand-in sells: US/CA `+1 <area> 555-01xx` (the range reserved for fiction, so nobody can
 * dial a real person from a sandbox) and UK `+44 7700 900xxx` (Ofcom's drama range).
 */
function numberPool(country: string, areaCode: string | undefined): string[] | undefined {
  if (country === 'US' || country === 'CA') {
    const area = areaCode ?? (country === 'US' ? '415' : '416');
    if (!/^[2-9]\d{2}$/.test(area)) return [];
    return Array.from({ length: 100 }, (_, i) => `+1${area}55501${String(i).padStart(2, '0')}`);
  }
  if (country === 'GB') return Array.from({ length: 1000 }, (_, i) => `+447700900${String(i).padStart(3, '0')}`);
  return undefined;
}

const inPool = (phoneNumber: string) => /^\+1[2-9]\d{2}55501\d{2}$/.test(phoneNumber) || /^\+447700900\d{3}$/.test(phoneNumber);
const countryOf = (phoneNumber: string) => (phoneNumber.startsWith('+44') ? 'GB' : 'US');

function friendly(phoneNumber: string): string {
  const us = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(phoneNumber);
  return us ? `(${us[1]}) ${us[2]}-${us[3]}` : phoneNumber;
}

const KEYPAD: Record<string, string> = Object.fromEntries(
  ['abc', 'def', 'ghi', 'jkl', 'mno', 'pqrs', 'tuv', 'wxyz'].flatMap((letters, i) => [...letters].map((l) => [l, String(i + 2)])),
);

/** Twilio's `Contains` / `PhoneNumber` pattern: digits, keypad letters, `*` for any one digit. */
function patternMatcher(pattern: string): (phoneNumber: string) => boolean {
  const source = [...pattern.toLowerCase()]
    .map((ch) => (ch === '*' ? '\\d' : /\d/.test(ch) ? ch : KEYPAD[ch] ?? (ch === '+' ? '\\+' : '')))
    .join('');
  const re = new RegExp(source);
  return (phoneNumber) => re.test(phoneNumber);
}

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
const many = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

interface State {
  accounts: Record<string, StandinAccount>;
  numbers: Record<string, StandinNumber>;
}

/** Starts the stand-in on 127.0.0.1. */
export async function startTwilioStandin(options: TwilioStandinOptions = {}): Promise<TwilioStandin> {
  const sandbox = options.sandbox ?? false;
  const state: State = loadState(options.stateFile);
  const calls = new Map<string, StandinCall>();
  const requests: RecordedRequest[] = [];
  const faults: { status: number; code: number; method?: string; pathIncludes?: string; times: number }[] = [];

  const save = () => {
    if (!options.stateFile) return;
    mkdirSync(dirname(options.stateFile), { recursive: true });
    const tmp = `${options.stateFile}.tmp`;
    writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
    renameSync(tmp, options.stateFile);
  };

  const numberByPhone = (phoneNumber: string) => Object.values(state.numbers).find((n) => n.phoneNumber === phoneNumber);

  function addAccount(sid = `AC${hex(16)}`, authToken = hex(16)): StandinAccount {
    const account = { sid, authToken };
    state.accounts[sid] = account;
    save();
    return account;
  }

  function addNumber(accountSid: string, phoneNumber: string, settings: Partial<StandinNumber> = {}): StandinNumber {
    if (!state.accounts[accountSid]) throw new Error(`No stand-in account ${accountSid}`);
    if (numberByPhone(phoneNumber)) throw new Error(`${phoneNumber} already belongs to an account`);
    const now = rfc2822();
    const number: StandinNumber = {
      sid: newSid('PN'),
      accountSid,
      phoneNumber,
      friendlyName: friendly(phoneNumber),
      voiceUrl: '',
      voiceMethod: 'POST',
      voiceFallbackUrl: '',
      statusCallback: '',
      statusCallbackMethod: 'POST',
      voiceApplicationSid: '',
      trunkSid: null,
      smsUrl: '',
      dateCreated: now,
      dateUpdated: now,
      ...settings,
    };
    state.numbers[number.sid] = number;
    save();
    return number;
  }

  /** Basic auth → the account, or a 401 fault. */
  function authenticate(req: IncomingMessage, pathSid: string): StandinAccount {
    const header = req.headers.authorization ?? '';
    const match = /^Basic\s+(.+)$/i.exec(header);
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const user = colon >= 0 ? decoded.slice(0, colon) : '';
    const token = colon >= 0 ? decoded.slice(colon + 1) : '';
    const denied = () =>
      new TwilioFault(401, 20003, 'Authenticate', { detail: 'Your AccountSid or AuthToken was incorrect.' });
    let account = state.accounts[user];
    if (!account && sandbox && ACCOUNT_SID.test(user) && AUTH_TOKEN.test(token)) account = addAccount(user, token);
    if (!account || account.authToken !== token) throw denied();
    // Credentials of one account never reach another account's resources.
    if (pathSid !== account.sid) throw denied();
    return account;
  }

  const numberJson = (n: StandinNumber) => ({
    account_sid: n.accountSid,
    address_requirements: 'none',
    address_sid: null,
    api_version: API_VERSION,
    beta: false,
    bundle_sid: null,
    capabilities: { fax: false, mms: true, sms: true, voice: true },
    date_created: n.dateCreated,
    date_updated: n.dateUpdated,
    emergency_address_sid: null,
    emergency_address_status: 'unregistered',
    emergency_status: 'Active',
    friendly_name: n.friendlyName,
    identity_sid: null,
    origin: 'twilio',
    phone_number: n.phoneNumber,
    sid: n.sid,
    sms_application_sid: '',
    sms_fallback_method: 'POST',
    sms_fallback_url: '',
    sms_method: 'POST',
    sms_url: n.smsUrl,
    status: 'in-use',
    status_callback: n.statusCallback,
    status_callback_method: n.statusCallbackMethod,
    subresource_uris: {
      assigned_add_ons: `/${API_VERSION}/Accounts/${n.accountSid}/IncomingPhoneNumbers/${n.sid}/AssignedAddOns.json`,
    },
    trunk_sid: n.trunkSid,
    type: 'local',
    uri: `/${API_VERSION}/Accounts/${n.accountSid}/IncomingPhoneNumbers/${n.sid}.json`,
    voice_application_sid: n.voiceApplicationSid,
    voice_caller_id_lookup: false,
    voice_fallback_method: 'POST',
    voice_fallback_url: n.voiceFallbackUrl,
    voice_method: n.voiceMethod,
    voice_receive_mode: 'voice',
    voice_url: n.voiceUrl,
  });

  const callJson = (c: StandinCall) => ({
    account_sid: c.accountSid,
    annotation: null,
    answered_by: null,
    api_version: API_VERSION,
    caller_name: null,
    date_created: c.dateCreated,
    date_updated: c.dateUpdated,
    direction: c.direction,
    duration: c.duration === null ? null : String(c.duration),
    end_time: c.endTime,
    forwarded_from: null,
    from: c.from,
    from_formatted: friendly(c.from),
    group_sid: null,
    parent_call_sid: null,
    phone_number_sid: c.phoneNumberSid,
    price: null,
    price_unit: 'USD',
    queue_time: '0',
    sid: c.sid,
    start_time: c.startTime,
    status: c.status,
    subresource_uris: {
      notifications: `/${API_VERSION}/Accounts/${c.accountSid}/Calls/${c.sid}/Notifications.json`,
      recordings: `/${API_VERSION}/Accounts/${c.accountSid}/Calls/${c.sid}/Recordings.json`,
    },
    to: c.to,
    to_formatted: friendly(c.to),
    trunk_sid: null,
    uri: `/${API_VERSION}/Accounts/${c.accountSid}/Calls/${c.sid}.json`,
  });

  /** Twilio's list envelope: the records under their resource name plus page metadata. */
  function listEnvelope(key: string, path: string, query: FormParams, items: unknown[], pageSize: number, page: number) {
    const start = page * pageSize;
    const slice = items.slice(start, start + pageSize);
    const extra = Object.entries(query)
      .filter(([k]) => k !== 'Page' && k !== 'PageSize' && k !== 'PageToken')
      .flatMap(([k, v]) => many(v).map((x) => `&${encodeURIComponent(k)}=${encodeURIComponent(x)}`))
      .join('');
    const pageUri = (p: number) => `${path}?PageSize=${pageSize}&Page=${p}${extra}`;
    return {
      [key]: slice,
      end: Math.max(start, start + slice.length - 1),
      first_page_uri: pageUri(0),
      next_page_uri: start + pageSize < items.length ? pageUri(page + 1) : null,
      page,
      page_size: pageSize,
      previous_page_uri: page > 0 ? pageUri(page - 1) : null,
      start,
      uri: pageUri(page),
    };
  }

  const pageParams = (query: FormParams, defaultSize: number, maxSize: number) => {
    const size = Number(one(query.PageSize) ?? defaultSize);
    const page = Number(one(query.Page) ?? 0);
    if (!Number.isInteger(size) || size < 1 || size > maxSize) throw new TwilioFault(400, 20007, `PageSize must be between 1 and ${maxSize}`);
    if (!Number.isInteger(page) || page < 0) throw new TwilioFault(400, 20007, 'Page must be a non-negative integer');
    return { size, page };
  };

  function searchAvailable(path: string, country: string, query: FormParams) {
    const pool = numberPool(country, one(query.AreaCode));
    if (!pool) throw notFound(path);
    const contains = one(query.Contains);
    const matches = contains ? patternMatcher(contains) : () => true;
    const { size } = pageParams(query, 50, 1000);
    const free = pool.filter((p) => !numberByPhone(p) && matches(p)).slice(0, size);
    return {
      available_phone_numbers: free.map((p) => ({
        address_requirements: 'none',
        beta: false,
        capabilities: { MMS: true, SMS: true, voice: true, fax: false },
        friendly_name: friendly(p),
        iso_country: country,
        lata: null,
        latitude: null,
        locality: null,
        longitude: null,
        phone_number: p,
        postal_code: null,
        rate_center: null,
        region: null,
      })),
      end: Math.max(0, free.length - 1),
      first_page_uri: `${path}?PageSize=${size}&Page=0`,
      next_page_uri: null,
      page: 0,
      page_size: size,
      previous_page_uri: null,
      start: 0,
      uri: `${path}?PageSize=${size}&Page=0`,
    };
  }

  /** The settable fields of a number, from a create or update form. */
  function applyRouting(n: StandinNumber, form: FormParams): void {
    const fields: [string, keyof StandinNumber][] = [
      ['VoiceUrl', 'voiceUrl'],
      ['VoiceMethod', 'voiceMethod'],
      ['VoiceFallbackUrl', 'voiceFallbackUrl'],
      ['StatusCallback', 'statusCallback'],
      ['StatusCallbackMethod', 'statusCallbackMethod'],
      ['VoiceApplicationSid', 'voiceApplicationSid'],
      ['FriendlyName', 'friendlyName'],
      ['SmsUrl', 'smsUrl'],
    ];
    for (const [param, field] of fields) {
      const value = one(form[param]);
      if (value === undefined) continue;
      if ((param === 'VoiceUrl' || param === 'StatusCallback' || param === 'VoiceFallbackUrl') && value !== '' && !/^https?:\/\//.test(value)) {
        throw new TwilioFault(400, 21502, `${param} is not a valid URL: ${value}`);
      }
      if ((param === 'VoiceMethod' || param === 'StatusCallbackMethod') && !['GET', 'POST'].includes(value.toUpperCase())) {
        throw new TwilioFault(400, 21503, `${param} must be GET or POST`);
      }
      (n as unknown as Record<string, string>)[field] = param.endsWith('Method') ? value.toUpperCase() : value;
    }
    const trunk = one(form.TrunkSid);
    if (trunk !== undefined) n.trunkSid = trunk === '' ? null : trunk;
    n.dateUpdated = rfc2822();
  }

  function buyNumber(account: StandinAccount, form: FormParams): StandinNumber {
    let phoneNumber = one(form.PhoneNumber);
    const areaCode = one(form.AreaCode);
    if (!phoneNumber && !areaCode) throw new TwilioFault(400, 21450, 'A PhoneNumber or AreaCode is required');
    if (!phoneNumber) {
      phoneNumber = numberPool('US', areaCode)?.find((p) => !numberByPhone(p));
      if (!phoneNumber) throw new TwilioFault(400, 21452, `No phone numbers found in area code ${areaCode}`);
    }
    if (!E164.test(phoneNumber)) throw new TwilioFault(400, 21421, `PhoneNumber is invalid: ${phoneNumber}`);
    if (!inPool(phoneNumber) || numberByPhone(phoneNumber)) {
      throw new TwilioFault(400, 21422, `PhoneNumber ${phoneNumber} is not available`);
    }
    const number = addNumber(account.sid, phoneNumber);
    applyRouting(number, form);
    save();
    return number;
  }

  function listNumbers(account: StandinAccount, path: string, query: FormParams) {
    const filter = one(query.PhoneNumber);
    const friendlyName = one(query.FriendlyName);
    // Sandbox: an account asking about an exact number nobody holds gets it (see the module comment).
    if (sandbox && filter && E164.test(filter) && !numberByPhone(filter)) addNumber(account.sid, filter);
    const matches = filter ? patternMatcher(filter) : () => true;
    const { size, page } = pageParams(query, 50, 1000);
    const items = Object.values(state.numbers)
      .filter((n) => n.accountSid === account.sid && matches(n.phoneNumber) && (!friendlyName || n.friendlyName === friendlyName))
      .map(numberJson);
    return listEnvelope('incoming_phone_numbers', path, query, items, size, page);
  }

  function createCall(account: StandinAccount, form: FormParams): StandinCall {
    const to = one(form.To);
    const from = one(form.From);
    const url = one(form.Url) ?? null;
    const twiml = one(form.Twiml) ?? null;
    if (!to) throw new TwilioFault(400, 21201, "No 'To' number is specified");
    if (!from) throw new TwilioFault(400, 21213, "No 'From' number is specified");
    if (!url && !twiml && !one(form.ApplicationSid)) throw new TwilioFault(400, 21205, 'Url parameter is required');
    if (twiml && twiml.length > 4000) throw new TwilioFault(400, 21236, 'Twiml must be at most 4000 characters');
    // Twilio dials SIP endpoints too (`sip:user@host`), for transfers to a PBX.
    if (!E164.test(to) && !/^sips?:[^\s@]+@[^\s@]+$/.test(to)) throw new TwilioFault(400, 21211, `Invalid 'To' Phone Number: ${to}`);
    const amd = one(form.MachineDetection);
    if (amd !== undefined && amd !== 'Enable' && amd !== 'DetectMessageEnd') throw new TwilioFault(400, 21263, `Invalid MachineDetection: ${amd}`);
    const fromNumber = numberByPhone(from);
    if (!fromNumber || fromNumber.accountSid !== account.sid) {
      throw new TwilioFault(400, 21210, `The source phone number provided, ${from}, is not yet verified for your account.`);
    }
    const timeLimit = one(form.TimeLimit);
    const call = addCall({
      accountSid: account.sid,
      to,
      from,
      phoneNumberSid: fromNumber.sid,
      status: 'queued',
      direction: 'outbound-api',
      url,
      method: (one(form.Method) ?? 'POST').toUpperCase(),
      twiml,
      statusCallback: one(form.StatusCallback) ?? null,
      statusCallbackEvents: many(form.StatusCallbackEvent),
      timeoutSeconds: Number(one(form.Timeout) ?? 60),
      timeLimitSeconds: timeLimit === undefined ? null : Number(timeLimit),
      record: one(form.Record) === 'true',
      machineDetection: one(form.MachineDetection) ?? null,
      asyncAmdStatusCallback: one(form.AsyncAmd) === 'true' ? (one(form.AsyncAmdStatusCallback) ?? null) : null,
    });
    options.hooks?.onCreate?.(call, account);
    return call;
  }

  /** Registers a call placed or ringing now: a fresh sid, created now, not started yet. */
  function addCall(fields: Omit<StandinCall, 'sid' | 'dateCreated' | 'dateUpdated' | 'startTime' | 'endTime' | 'duration'>): StandinCall {
    const now = rfc2822();
    const call: StandinCall = { sid: newSid('CA'), ...fields, dateCreated: now, dateUpdated: now, startTime: null, endTime: null, duration: null };
    calls.set(call.sid, call);
    return call;
  }

  function setCallStatus(sid: string, status: StandinCallStatus): StandinCall {
    const call = calls.get(sid);
    if (!call) throw new Error(`No stand-in call ${sid}`);
    const now = new Date();
    if (status === 'in-progress' && !call.startTime) call.startTime = rfc2822(now);
    if (TERMINAL.has(status) && !call.endTime) {
      call.endTime = rfc2822(now);
      call.duration = call.startTime ? Math.round((now.getTime() - Date.parse(call.startTime)) / 1000) : 0;
    }
    call.status = status;
    call.dateUpdated = rfc2822(now);
    return call;
  }

  function updateCall(account: StandinAccount, path: string, call: StandinCall, form: FormParams): StandinCall {
    const status = one(form.Status);
    const url = one(form.Url);
    const twiml = one(form.Twiml);
    if (status !== undefined && status !== 'completed' && status !== 'canceled') {
      throw new TwilioFault(400, 21218, `Invalid Status: ${status}`);
    }
    if (TERMINAL.has(call.status)) {
      // Hanging up a call that already ended: Twilio answers 20404 (see PROTOCOLS.md).
      if (status) throw notFound(path);
      throw new TwilioFault(400, 21220, 'Call is not in-progress. Cannot redirect.');
    }
    if (url !== undefined) {
      call.url = url;
      call.twiml = null;
      call.method = (one(form.Method) ?? 'POST').toUpperCase();
    }
    if (twiml !== undefined) {
      call.twiml = twiml;
      call.url = null;
    }
    // `canceled` only stops a call that has not been answered; Twilio ignores it on a live call.
    if (status === 'completed' || (status === 'canceled' && (call.status === 'queued' || call.status === 'ringing'))) {
      setCallStatus(call.sid, status);
    } else {
      call.dateUpdated = rfc2822();
    }
    options.hooks?.onUpdate?.(call, { ...(url !== undefined ? { url } : {}), ...(twiml !== undefined ? { twiml } : {}), ...(status ? { status } : {}) }, account);
    return call;
  }

  /** Routes one authenticated request; returns [status, JSON body or undefined]. */
  function dispatch(account: StandinAccount, method: string, path: string, rest: string, query: FormParams, form: FormParams): [number, unknown] {
    if (rest === '.json' && method === 'GET') {
      return [200, { sid: account.sid, friendly_name: 'Stand-in account', status: 'active', type: 'Full', uri: `${path}` }];
    }
    let m = /^\/AvailablePhoneNumbers\/([A-Z]{2})\/Local\.json$/.exec(rest);
    if (m && method === 'GET') return [200, searchAvailable(path, m[1]!, query)];
    if (rest === '/IncomingPhoneNumbers.json') {
      if (method === 'GET') return [200, listNumbers(account, path, query)];
      if (method === 'POST') return [201, numberJson(buyNumber(account, form))];
    }
    m = /^\/IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json$/.exec(rest);
    if (m) {
      const number = state.numbers[m[1]!];
      if (!number || number.accountSid !== account.sid) throw notFound(path);
      if (method === 'GET') return [200, numberJson(number)];
      if (method === 'POST') {
        applyRouting(number, form);
        save();
        return [200, numberJson(number)];
      }
      if (method === 'DELETE') {
        delete state.numbers[number.sid];
        save();
        return [204, undefined];
      }
    }
    if (rest === '/Calls.json' && method === 'POST') return [201, callJson(createCall(account, form))];
    m = /^\/Calls\/(CA[0-9a-f]{32})\.json$/.exec(rest);
    if (m) {
      const call = calls.get(m[1]!);
      if (!call || call.accountSid !== account.sid) throw notFound(path);
      if (method === 'GET') return [200, callJson(call)];
      if (method === 'POST') return [200, callJson(updateCall(account, path, call, form))];
    }
    throw notFound(path);
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    const method = (req.method ?? 'GET').toUpperCase();
    const query = parseForm(url.search.slice(1));
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const form = isForm ? parseForm(text) : {};
    let authAccountSid: string | undefined;
    const header = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (header) authAccountSid = Buffer.from(header[1]!, 'base64').toString('utf8').split(':')[0];

    let status: number;
    let body: unknown;
    try {
      const fault = faults.find((f) => f.times > 0 && (!f.method || f.method === method) && (!f.pathIncludes || url.pathname.includes(f.pathIncludes)));
      if (fault) {
        fault.times -= 1;
        throw new TwilioFault(fault.status, fault.code, `Injected fault ${fault.code}`);
      }
      const m = /^\/2010-04-01\/Accounts\/([^/]+?)(\.json|\/.*)$/.exec(url.pathname);
      if (!m) throw notFound(url.pathname);
      const account = authenticate(req, m[1]!);
      [status, body] = dispatch(account, method, url.pathname, m[2]!, query, form);
    } catch (caught) {
      const error = caught instanceof TwilioFault ? caught : new TwilioFault(500, 20500, `Internal Server Error: ${String(caught)}`);
      status = error.status;
      body = {
        code: error.code,
        message: error.message,
        more_info: `https://www.twilio.com/docs/errors/${error.code}`,
        status: error.status,
        ...error.extra,
      };
    }
    requests.push({ method, path: url.pathname, query, form, authAccountSid, status });
    send(res, status, body);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  async function ringInbound(phoneNumber: string, from: string, extra: Record<string, string> = {}): Promise<InboundResult> {
    const number = numberByPhone(phoneNumber);
    if (!number) throw new Error(`No stand-in number ${phoneNumber}`);
    const account = state.accounts[number.accountSid]!;
    if (!number.voiceUrl) throw new Error(`${phoneNumber} has no VoiceUrl`);
    const call = addCall({
      accountSid: account.sid,
      to: phoneNumber,
      from,
      phoneNumberSid: number.sid,
      status: 'ringing',
      direction: 'inbound',
      url: number.voiceUrl,
      method: number.voiceMethod,
      twiml: null,
      statusCallback: number.statusCallback || null,
      statusCallbackEvents: ['completed'],
      timeoutSeconds: 60,
      timeLimitSeconds: null,
      record: false,
      machineDetection: null,
      asyncAmdStatusCallback: null,
    });
    const params: Record<string, string> = {
      AccountSid: account.sid,
      ApiVersion: API_VERSION,
      CallSid: call.sid,
      CallStatus: 'ringing',
      Called: phoneNumber,
      Caller: from,
      Direction: 'inbound',
      From: from,
      To: phoneNumber,
      ...extra,
    };
    const res = await fetch(number.voiceUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(account.authToken, number.voiceUrl, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    return { callSid: call.sid, status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
  }

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sandbox,
    addAccount,
    addNumber,
    number: (phoneNumber) => numberByPhone(phoneNumber),
    call: (sid) => calls.get(sid),
    setCallStatus,
    ringInbound,
    injectFault: (fault) => {
      faults.push({ ...fault, times: fault.times ?? 1 });
    },
    requests,
    clearRequests: () => {
      requests.length = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (status === 204 || body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  if (status === 401) res.setHeader('www-authenticate', 'Basic realm="Twilio API"');
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function loadState(file: string | undefined): State {
  if (!file) return { accounts: {}, numbers: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<State>;
    return { accounts: parsed.accounts ?? {}, numbers: parsed.numbers ?? {} };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { accounts: {}, numbers: {} };
    throw error;
  }
}
