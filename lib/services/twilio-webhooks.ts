import type * as z from 'zod';
import { applyInboundStatus, openInboundCall } from './inbound-calls.js';
import { publicUrl, streamUrl } from '../config.js';
import type { Deps } from '../deps.js';
import { AppError, BadRequestError, PayloadTooLargeError } from '../domain/errors.js';
import type { PhoneNumber } from '../domain/phone-number.js';
import { signStreamToken, STREAM_TOKEN_KEY_PURPOSE } from '../domain/stream-token.js';
import { log } from '../observability/log.js';
import { findAgent } from '../store/agents.js';
import { agentToRun } from './agent-runtime.js';
import { askInboundWebhook, type InboundRouting } from './inbound-webhook.js';
import type { Agent } from '../domain/agent.js';
import { newId } from '../domain/ids.js';
import { normalizePhone } from '../domain/phone.js';
import { findFirstPhoneNumberByE164 } from '../store/phone-numbers.js';
import { findCall } from '../store/calls.js';
import { applyAmdVerdict } from './answering-machine.js';
import { answerWarmTransfer, TRANSFER_DECLINED_MESSAGE } from './warm-transfer.js';
import { answerOutboundCall, callIdOf, trackOutboundStatus } from './outbound-voice.js';
import {
  connectStreamTwiml,
  isValidTwilioSignature,
  parseForm,
  sayAndHangUpTwiml,
  TwilioAmdParams,
  TwilioGatherParams,
  TwilioStatusParams,
  TwilioVoiceParams,
  type FormParams,
} from '../vendors/telephony/twilio-webhook.js';

/**
 * The requests Twilio sends us: the voice webhook (answer an inbound call with TwiML) and the call status
 * callback. Each is authenticated by `X-Twilio-Signature` under the auth token of the account the call
 * belongs to (the platform's for bought numbers, the customer's for imported ones) before anything is read
 * or changed; the signed URL is rebuilt from PUBLIC_BASE_URL, never from the Host header.
 */

type WebhookDeps = Pick<Deps, 'config' | 'db' | 'secrets' | 'telephony' | 'webhooks'>;

/** A webhook request as the handler hands it over. */
export interface WebhookRequest {
  /** The path as received, e.g. /twilio/voice. */
  readonly path: string;
  /** The raw query string, without `?`. */
  readonly rawQuery?: string;
  readonly signature?: string;
  readonly body: string;
}

/** Twilio's webhook bodies are a couple of kilobytes; anything far larger is not from Twilio. */
const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

/** Spoken when nobody is there to answer: the number has no agent, or is not (or no longer) ours. */
export const NO_AGENT_MESSAGE = 'Sorry, no one is available to take your call right now. Goodbye.';
/** Spoken when the workspace cannot pay for the call; it does not say why, the caller is not the customer. */
export const NO_CREDITS_MESSAGE = 'Sorry, we cannot take your call right now. Please try again later. Goodbye.';

export class InvalidSignatureError extends AppError {
  constructor() {
    super(403, 'invalid_signature', 'The X-Twilio-Signature header does not match this request.');
  }
}

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
const looksLikeNumber = (v: string | undefined): v is string => v !== undefined && /^\+\d{6,15}$/.test(v);

interface Verified {
  readonly params: FormParams;
  /** Our number involved in the call, if it is one of ours. */
  readonly owned?: PhoneNumber;
}

/**
 * Finds whose token signs this request and checks the signature. The number comes from `To` (inbound)
 * or `From` (calls we placed); its account must be the one named in `AccountSid`. A request whose account
 * we hold no token for cannot be verified and is refused like a bad signature.
 */
async function verify(
  deps: WebhookDeps,
  request: WebhookRequest,
  how: { ourNumber?: () => Promise<string | undefined>; fromFirst?: boolean } = {},
): Promise<Verified> {
  if (Buffer.byteLength(request.body, 'utf8') > MAX_WEBHOOK_BODY_BYTES) throw new PayloadTooLargeError(MAX_WEBHOOK_BODY_BYTES);
  const params = parseForm(request.body);
  const accountSid = one(params.AccountSid);
  const numbers = [one(params.To), one(params.From)];
  const named = (how.fromFirst ? numbers.reverse() : numbers).filter(looksLikeNumber);
  const { ourNumber } = how;
  // A callback without numbers (AMD) names our number through the call in its URL; the signature still
  // covers that URL, so naming another call only picks a token the request will not verify under.
  if (named.length === 0 && ourNumber) named.push(...[await ourNumber()].filter(looksLikeNumber));
  const owned = await findFirstPhoneNumberByE164(deps.db, deps.secrets, named);
  let token: string | undefined;
  if (owned?.number.type === 'byot') {
    if (accountSid === owned.number.telephonyAccountSid) token = owned.authToken;
  } else {
    const platform = await deps.telephony.platformAccount();
    if (platform && accountSid === platform.accountSid) token = platform.authToken;
  }
  const url = publicUrl(deps.config, request.path) + (request.rawQuery ? `?${request.rawQuery}` : '');
  if (!token || !isValidTwilioSignature(token, request.signature, url, params)) throw new InvalidSignatureError();
  return { params, owned: owned?.number };
}

function parseSigned<S extends z.ZodType>(schema: S, params: FormParams): z.infer<S> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) {
    throw new BadRequestError(
      'The webhook is missing fields Twilio always sends.',
      parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
      'invalid_webhook',
    );
  }
  return parsed.data;
}

/**
 * Answers an inbound call. A number with an agent is bridged to the streaming service with a short-lived
 * signed stream token; anything else hears a short message and the call ends.
 */
export async function answerVoiceWebhook(deps: WebhookDeps, request: WebhookRequest): Promise<string> {
  const { params, owned } = await verify(deps, request);
  const call = parseSigned(TwilioVoiceParams, params);
  // Calls we placed carry our call id in the (signed) webhook URL: see lib/services/outbound-voice.ts.
  const outboundCallId = callIdOf(request.rawQuery);
  if (outboundCallId) return answerOutboundCall(deps, owned, outboundCallId, call.CallSid, call.From);
  const numberAgent = owned?.agentId ? await findAgent(deps.db, owned.workspaceId, owned.agentId) : undefined;
  // The number's inbound webhook may pick the agent, give the call's data, or reject it (docs/telephony.md).
  const callId = newId('call');
  const asked = owned ? await askInboundWebhook(deps, owned, numberAgent, { from: normalizePhone(call.From)?.e164 ?? call.From, callId }) : undefined;
  // The ask's log entry is written while the call is answered (docs/benchmarks.md, `inbound`).
  const [twiml] = await Promise.all([answerInbound(deps, owned, call, callId, asked?.routing, numberAgent), asked?.logged]);
  return twiml;
}

async function answerInbound(
  deps: WebhookDeps,
  owned: PhoneNumber | undefined,
  call: z.infer<typeof TwilioVoiceParams>,
  callId: string,
  routing: InboundRouting | undefined,
  numberAgent: Agent | undefined,
): Promise<string> {
  if (routing?.kind === 'reject') {
    log('info', 'inbound call rejected by the number\'s webhook', { callSid: call.CallSid, numberId: owned?._id });
    return routing.twiml;
  }
  const chosen = routing?.agent ?? numberAgent;
  // The version the call runs: the number's pin for the number's own agent, else the latest published.
  const pin = chosen && chosen === numberAgent ? (owned?.agentVersion ?? undefined) : undefined;
  const run = chosen && owned ? await agentToRun(deps.db, owned.workspaceId, chosen, pin).catch(() => agentToRun(deps.db, owned.workspaceId, chosen)) : undefined;
  const agent = run?.agent;
  log('info', 'inbound call', {
    callSid: call.CallSid,
    numberId: owned?._id,
    workspaceId: owned?.workspaceId,
    routed: agent ? 'agent' : 'no_agent',
  });
  if (!owned || !agent) return sayAndHangUpTwiml(NO_AGENT_MESSAGE);
  // An inbound call reserves one call's credits here, as an outbound call does when it starts: a workspace
  // answers only as many callers at once as it can pay for, and the stream settles what it measured.
  const answer = await openInboundCall(deps, {
    workspaceId: owned.workspaceId,
    agentId: agent._id,
    phoneNumberId: owned._id,
    ourNumber: owned.number,
    caller: call.From,
    callSid: call.CallSid,
    agent,
    callId,
    ...(routing && {
      data: {
        ...(routing.variables && { variables: { ...routing.variables } }),
        ...(routing.metadata && { metadata: { ...routing.metadata } }),
        ...(routing.agentOverrides && { agentOverrides: routing.agentOverrides }),
      },
    }),
    ...(run?.version !== undefined && { agentVersion: run.version }),
  });
  if (answer.kind === 'insufficient') {
    log('info', 'inbound call refused: insufficient credits', { callSid: call.CallSid, workspaceId: owned.workspaceId });
    return sayAndHangUpTwiml(NO_CREDITS_MESSAGE);
  }
  if (answer.kind === 'ended') return sayAndHangUpTwiml(NO_AGENT_MESSAGE);
  const token = signStreamToken(
    { callSid: call.CallSid, workspaceId: owned.workspaceId, callId: answer.call._id },
    deps.secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE),
  );
  return connectStreamTwiml(streamUrl(deps.config), { token });
}

/**
 * Takes the asynchronous answering-machine verdict of a call we placed (its URL names the call and its
 * workspace) and acts on it (lib/services/answering-machine.ts).
 */
export async function recordAmdVerdict(deps: WebhookDeps, request: WebhookRequest): Promise<TwilioAmdParams> {
  const query = new URLSearchParams(request.rawQuery ?? '');
  const callId = callIdOf(request.rawQuery);
  const workspaceId = query.get('workspaceId') ?? '';
  const ourNumber = async () => (callId && /^ws_[0-9A-Za-z]+$/.test(workspaceId) ? (await findCall(deps.db, workspaceId, callId))?.from : undefined);
  const { params, owned } = await verify(deps, request, { ourNumber });
  const verdict = parseSigned(TwilioAmdParams, params);
  if (callId && owned && owned.workspaceId === workspaceId) {
    await applyAmdVerdict(deps, owned, callId, { callSid: verdict.CallSid, answeredBy: verdict.AnsweredBy });
  }
  return verdict;
}

/**
 * The key the target of a warm transfer pressed (lib/services/warm-transfer.ts). The second call is
 * placed from our number, so its `From` names the token that signs the request.
 */
export async function answerTransferGather(deps: WebhookDeps, request: WebhookRequest): Promise<string> {
  // The target may be a number held here too (another workspace's): the caller ID, ours, decides.
  const { params, owned } = await verify(deps, request, { fromFirst: true });
  const gather = parseSigned(TwilioGatherParams, params);
  const callId = callIdOf(request.rawQuery);
  const workspaceId = new URLSearchParams(request.rawQuery ?? '').get('workspaceId');
  const ours = owned && owned.workspaceId === workspaceId ? owned : undefined;
  if (!callId) return sayAndHangUpTwiml(TRANSFER_DECLINED_MESSAGE);
  return answerWarmTransfer(deps, ours, callId, gather.Digits);
}

/**
 * Takes a call status callback and applies it to the call it belongs to: by the call id in the URL (calls
 * we placed), else by the provider's call sid (inbound calls, whose callback URL is the number's).
 */
export async function recordCallStatus(deps: WebhookDeps, request: WebhookRequest): Promise<TwilioStatusParams> {
  const { params, owned } = await verify(deps, request);
  const status = parseSigned(TwilioStatusParams, params);
  log('info', 'call status', {
    callSid: status.CallSid,
    status: status.CallStatus,
    direction: status.Direction,
    durationSeconds: status.CallDuration,
    numberId: owned?._id,
    workspaceId: owned?.workspaceId,
  });
  const update = { callSid: status.CallSid, status: status.CallStatus, durationSeconds: status.CallDuration, answeredBy: status.AnsweredBy };
  const outboundCallId = callIdOf(request.rawQuery);
  if (outboundCallId) await trackOutboundStatus(deps, owned, outboundCallId, { ...update, from: status.From });
  else if (owned) await applyInboundStatus(deps, owned.workspaceId, update);
  return status;
}
