import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * What the Twilio stand-in holds: accounts and numbers (kept across restarts when given a state file) and
 * the calls of this run. Every REST resource and the call simulator read and change it only through here.
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

/** The seam the calls issue fills in: what happens once a call exists. */
export interface CallHooks {
  /** A call was created through the REST API (dial out, fetch TwiML, stream...). */
  onCreate?(call: StandinCall, account: StandinAccount): void;
  /** A live call was redirected (`Url`/`Twiml`) or ended (`Status`). */
  onUpdate?(call: StandinCall, change: { url?: string; twiml?: string; status?: string }, account: StandinAccount): void;
}

/** The fields a new call is registered with; the stand-in fills in its sid and times. */
export type NewCall = Omit<StandinCall, 'sid' | 'dateCreated' | 'dateUpdated' | 'startTime' | 'endTime' | 'duration'>;

export const TERMINAL: ReadonlySet<StandinCallStatus> = new Set(['completed', 'busy', 'failed', 'no-answer', 'canceled']);

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const newSid = (prefix: string) => `${prefix}${hex(16)}`;

/** Twilio's date format: RFC 2822 in GMT with a numeric zone, e.g. `Thu, 30 Jul 2015 20:00:00 +0000`. */
export function rfc2822(date: Date = new Date()): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

/** US numbers as Twilio's `friendly_name` shows them: `(415) 555-0100`; others unchanged. */
export function friendly(phoneNumber: string): string {
  const us = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(phoneNumber);
  return us ? `(${us[1]}) ${us[2]}-${us[3]}` : phoneNumber;
}

interface Saved {
  accounts: Record<string, StandinAccount>;
  numbers: Record<string, StandinNumber>;
}

/** Accounts, numbers and calls of one stand-in. */
export class TwilioState {
  /** Calls live only as long as the process, as their media would. */
  readonly calls = new Map<string, StandinCall>();
  private readonly saved: Saved;

  /** `stateFile`: keep accounts and numbers across restarts in this JSON file. */
  constructor(private readonly stateFile?: string) {
    this.saved = load(stateFile);
  }

  get accounts(): Readonly<Record<string, StandinAccount>> {
    return this.saved.accounts;
  }

  get numbers(): Readonly<Record<string, StandinNumber>> {
    return this.saved.numbers;
  }

  /** Writes accounts and numbers atomically (a crash mid-write leaves the previous file). */
  save(): void {
    if (!this.stateFile) return;
    mkdirSync(dirname(this.stateFile), { recursive: true });
    const tmp = `${this.stateFile}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.saved), { mode: 0o600 });
    renameSync(tmp, this.stateFile);
  }

  numberByPhone(phoneNumber: string): StandinNumber | undefined {
    return Object.values(this.saved.numbers).find((n) => n.phoneNumber === phoneNumber);
  }

  /** Registers an account; a missing sid or token is generated. */
  addAccount(sid = `AC${hex(16)}`, authToken = hex(16)): StandinAccount {
    const account = { sid, authToken };
    this.saved.accounts[sid] = account;
    this.save();
    return account;
  }

  /** Puts a number in an account, with optional routing already set. */
  addNumber(accountSid: string, phoneNumber: string, settings: Partial<StandinNumber> = {}): StandinNumber {
    if (!this.saved.accounts[accountSid]) throw new Error(`No stand-in account ${accountSid}`);
    if (this.numberByPhone(phoneNumber)) throw new Error(`${phoneNumber} already belongs to an account`);
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
    this.saved.numbers[number.sid] = number;
    this.save();
    return number;
  }

  releaseNumber(sid: string): void {
    delete this.saved.numbers[sid];
    this.save();
  }

  /** Registers a call placed or ringing now: a fresh sid, created now, not started yet. */
  addCall(fields: NewCall): StandinCall {
    const now = rfc2822();
    const call: StandinCall = { sid: newSid('CA'), ...fields, dateCreated: now, dateUpdated: now, startTime: null, endTime: null, duration: null };
    this.calls.set(call.sid, call);
    return call;
  }

  /** Moves a call along, as the network would: answering starts its clock, a terminal status stops it. */
  setCallStatus(sid: string, status: StandinCallStatus): StandinCall {
    const call = this.calls.get(sid);
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
}

function load(file: string | undefined): Saved {
  if (!file) return { accounts: {}, numbers: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Saved>;
    return { accounts: parsed.accounts ?? {}, numbers: parsed.numbers ?? {} };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { accounts: {}, numbers: {} };
    throw error;
  }
}
