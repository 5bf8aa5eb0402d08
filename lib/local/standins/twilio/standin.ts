import { createServer, type IncomingMessage, type Server } from 'node:http';
import { parseForm, type FormParams } from '../../../vendors/telephony/twilio-webhook.js';
import { CallResources, type InboundResult } from './calls.js';
import { NumberResources } from './numbers.js';
import { TwilioState, type CallHooks, type StandinAccount, type StandinCall, type StandinCallStatus, type StandinNumber } from './state.js';
import { ACCOUNT_SID, AUTH_TOKEN, faultBody, notFound, send, TwilioFault, type Answer } from './wire.js';

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
 * This file is the HTTP server (authentication, fault injection, the request log); the resources are
 * numbers.ts and calls.ts over the state in state.ts. Placing calls (fetching TwiML, opening a Media
 * Stream) is the call simulator's (call-simulator.ts), plugged in through {@link CallHooks}.
 */

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

export interface TwilioStandinOptions {
  /** Accept any well-formed credentials and hand out numbers on lookup (see the module comment). */
  readonly sandbox?: boolean;
  /** Keep accounts and numbers across restarts in this JSON file (`npm start` uses DATA_DIR). */
  readonly stateFile?: string;
  readonly hooks?: CallHooks;
  /** Defaults to 0: the OS picks a free port. */
  readonly port?: number;
}

/** A failure to answer with before any resource is reached (see {@link TwilioStandin.injectFault}). */
interface Fault {
  readonly status: number;
  readonly code: number;
  readonly method?: string;
  readonly pathIncludes?: string;
  times: number;
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

/** The stand-in's HTTP front: it authenticates, applies injected faults, logs, and routes to a resource. */
class TwilioApi {
  readonly requests: RecordedRequest[] = [];
  readonly faults: Fault[] = [];
  readonly numbers: NumberResources;
  readonly calls: CallResources;

  constructor(
    readonly state: TwilioState,
    readonly sandbox: boolean,
    hooks: CallHooks | undefined,
  ) {
    this.numbers = new NumberResources(state, sandbox);
    this.calls = new CallResources(state, hooks);
  }

  async handle(req: IncomingMessage): Promise<Answer> {
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

    let answer: Answer;
    try {
      const fault = this.faults.find((f) => f.times > 0 && (!f.method || f.method === method) && (!f.pathIncludes || url.pathname.includes(f.pathIncludes)));
      if (fault) {
        fault.times -= 1;
        throw new TwilioFault(fault.status, fault.code, `Injected fault ${fault.code}`);
      }
      const m = /^\/2010-04-01\/Accounts\/([^/]+?)(\.json|\/.*)$/.exec(url.pathname);
      if (!m) throw notFound(url.pathname);
      const account = this.authenticate(req, m[1]!);
      answer = this.dispatch(account, method, url.pathname, m[2]!, query, form);
    } catch (caught) {
      const error = caught instanceof TwilioFault ? caught : new TwilioFault(500, 20500, `Internal Server Error: ${String(caught)}`);
      answer = [error.status, faultBody(error)];
    }
    this.requests.push({ method, path: url.pathname, query, form, authAccountSid, status: answer[0] });
    return answer;
  }

  /** Basic auth → the account, or a 401 fault. */
  private authenticate(req: IncomingMessage, pathSid: string): StandinAccount {
    const header = req.headers.authorization ?? '';
    const match = /^Basic\s+(.+)$/i.exec(header);
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const user = colon >= 0 ? decoded.slice(0, colon) : '';
    const token = colon >= 0 ? decoded.slice(colon + 1) : '';
    const denied = () => new TwilioFault(401, 20003, 'Authenticate', { detail: 'Your AccountSid or AuthToken was incorrect.' });
    let account = this.state.accounts[user];
    if (!account && this.sandbox && ACCOUNT_SID.test(user) && AUTH_TOKEN.test(token)) account = this.state.addAccount(user, token);
    if (!account || account.authToken !== token) throw denied();
    // Credentials of one account never reach another account's resources.
    if (pathSid !== account.sid) throw denied();
    return account;
  }

  /** Routes one authenticated request (`rest`: the path after `/Accounts/{sid}`). */
  private dispatch(account: StandinAccount, method: string, path: string, rest: string, query: FormParams, form: FormParams): Answer {
    if (rest === '.json' && method === 'GET') {
      return [200, { sid: account.sid, friendly_name: 'Stand-in account', status: 'active', type: 'Full', uri: `${path}` }];
    }
    const answer = this.numbers.route(account, method, path, rest, query, form) ?? this.calls.route(account, method, path, rest, form);
    if (!answer) throw notFound(path);
    return answer;
  }
}

/** The stand-in's control route that rings one of its numbers (see {@link startTwilioStandin}). */
export const RING_PATH = '/_standin/ring';

/** Starts the stand-in on 127.0.0.1. */
export async function startTwilioStandin(options: TwilioStandinOptions = {}): Promise<TwilioStandin> {
  const sandbox = options.sandbox ?? false;
  const state = new TwilioState(options.stateFile);
  const api = new TwilioApi(state, sandbox, options.hooks);
  const server: Server = createServer(async (req, res) => {
    // Not Twilio's: the stand-in's own control for `npm start`, ringing one of its numbers as a caller would
    // (docs/telephony.md, "Ringing an inbound call locally"). Twilio has no such route, so no client of ours can call it.
    if (req.method === 'POST' && req.url === RING_PATH) {
      const chunks: Buffer[] = [];
      for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
      const form = parseForm(Buffer.concat(chunks).toString('utf8'));
      const [to, from] = [form.To, form.From].map((v) => (Array.isArray(v) ? v[0] : v));
      if (!to || !from) return send(res, 400, { message: 'POST To and From (E.164), form-encoded' });
      try {
        return send(res, 200, await api.calls.ringInbound(to, from));
      } catch (error) {
        return send(res, 404, { message: String(error) });
      }
    }
    const [status, body] = await api.handle(req);
    send(res, status, body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sandbox,
    addAccount: (sid, authToken) => state.addAccount(sid, authToken),
    addNumber: (accountSid, phoneNumber, settings) => state.addNumber(accountSid, phoneNumber, settings),
    number: (phoneNumber) => state.numberByPhone(phoneNumber),
    call: (sid) => state.calls.get(sid),
    setCallStatus: (sid, status) => state.setCallStatus(sid, status),
    ringInbound: (phoneNumber, from, extra) => api.calls.ringInbound(phoneNumber, from, extra),
    injectFault: (fault) => {
      api.faults.push({ ...fault, times: fault.times ?? 1 });
    },
    requests: api.requests,
    clearRequests: () => {
      api.requests.length = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
