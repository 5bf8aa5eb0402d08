import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '../../lib/domain/agent.js';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { newId } from '../../lib/domain/ids.js';
import type { PhoneNumber } from '../../lib/domain/phone-number.js';
import { putNewPhoneNumber } from '../../lib/store/phone-numbers.js';
import { signStreamToken, STREAM_TOKEN_KEY_PURPOSE } from '../../lib/domain/stream-token.js';
import { signWebSession, WEB_SESSION_KEY_PURPOSE, type WebSessionClaims } from '../../lib/domain/web-session-token.js';
import { getDeps, withTelephony, type Deps } from '../../lib/deps.js';
import { createTwilioTelephony } from '../../lib/vendors/telephony/twilio.js';
import { startPlatform, type RunningPlatform } from '../../lib/local/platform/platform.js';
import { SimulatedCaller, speech } from '../../lib/local/callers/simulated-caller.js';
import { defaultReply, type ScriptReply, type ScriptRequest } from '../../lib/local/standins/llm.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { openInboundCall } from '../../lib/services/inbound-calls.js';
import { putNewAgent } from '../../lib/store/agents.js';
import { createWorkspace } from '../../lib/store/workspaces.js';
import type { LocalVoiceOptions } from '../../streaming-service/src/local.js';
import type { CallEnded } from '../../streaming-service/src/service.js';
import { sharedStores } from '../support/platform.js';
import { WAIT_MS } from '../support/progress.js';

/**
 * The voice tests' platform: the whole local platform (stores shared with the run, a table of its own),
 * the streaming service on its origin, and the vendor stand-ins scripted per test file.
 */
export interface VoicePlatform {
  readonly platform: RunningPlatform;
  readonly deps: Deps;
  readonly workspaceId: string;
  readonly apiKey: string;
  readonly mediaUrl: string;
  agent(overrides?: Partial<Agent>): Promise<Agent>;
  /**
   * A signed stream token for an inbound call to `agent`, answered the way the voice webhook answers one
   * (a live call with its reservation, which the stream claims and settles).
   */
  token(agent: Agent, callSid: string, extra?: { from?: string; numberId?: string; exp?: number; agentVersion?: number }): Promise<string>;
  /** Opens a simulated call; resolves once connected (the caller has sent `start`). */
  call(agent: Agent, extra?: { from?: string; numberId?: string; playbackSpeed?: number; echoGain?: number; noiseLevel?: number; agentVersion?: number }): Promise<SimulatedCaller>;
  /** The browser transport's URL (docs/meeting.md). */
  readonly webUrl: string;
  /**
   * A meeting for `agent` created through the API (its link redeemed, as the page's join does) and a web
   * session credential for it; `sessionId` names the tab.
   */
  meeting(agent: Agent, body?: Record<string, unknown>): Promise<{ callId: string; credential: (sessionId?: string) => string }>;
  /** The next call that ends (its history record written). */
  nextCallEnded(timeoutMs?: number): Promise<CallEnded>;
  /** A JSON request to the platform's API with this workspace's key. */
  api(method: string, path: string, body: unknown): Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

/**
 * Short apology and failure lines for files that assert on them. The defaults (DEFAULT_SESSION_OPTIONS)
 * take 3 s and 7 s to play through the tone stand-in, paced in real time; what is tested is that the line
 * is said when it should be, not its wording, so these files configure shorter ones through the session
 * options, as a deployment may.
 */
export const SHORT_LINES = {
  apologyPhrase: 'Sorry, say that again?',
  failurePhrase: 'Sorry, technical trouble. Goodbye.',
} as const;

export async function startVoicePlatform(voice: LocalVoiceOptions = {}): Promise<VoicePlatform> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vap-voice-'));
  const platform = await startPlatform(
    { PORT: 0, HOST: '127.0.0.1', DATA_DIR: dataDir, TABLE_NAME: `t-${randomBytes(6).toString('hex')}`, BUCKET_NAME: 'voice-agents-recordings' },
    { stores: sharedStores(), persist: false, voice, dispatchPoller: false },
  );
  // Tests reach the provider directly too, so their deps carry the adapter the telephony handlers name.
  const deps = withTelephony(await getDeps(), createTwilioTelephony);
  // Every call reserves its maximum price while it runs; enough for the calls of any voice test file.
  const { workspaceId, apiKey } = await createWorkspace(deps.db, { name: 'voice', credits: 10_000 });
  const key = deps.secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE);
  const ended: CallEnded[] = [];
  const waiting: ((e: CallEnded) => void)[] = [];
  platform.voice.streaming.onCallEnded((e) => {
    const w = waiting.shift();
    if (w) w(e);
    else ended.push(e);
  });
  const mediaUrl = `${platform.baseUrl.replace(/^http/, 'ws')}/media-stream`;
  const webKey = deps.secrets.deriveKey(WEB_SESSION_KEY_PURPOSE);
  const vp: VoicePlatform = {
    platform,
    deps,
    workspaceId,
    apiKey,
    mediaUrl,
    webUrl: `${platform.baseUrl.replace(/^http/, 'ws')}/web-stream`,
    async meeting(agent, body = {}) {
      const created = await vp.api('POST', '/api/optimus/meeting-link', { assistantId: agent._id, ...body });
      if (created.status !== 201) throw new Error(`meeting link: ${created.status} ${JSON.stringify(created.body)}`);
      const { call_id: callId, room_url: roomUrl } = created.body as { call_id: string; room_url: string };
      // Joined as the page joins: its own JSON POST redeems the link and hands back the session.
      const url = new URL(roomUrl);
      const joined = await fetch(`${platform.baseUrl}${url.pathname}/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ token: url.searchParams.get('token') }),
      });
      if (joined.status !== 200) throw new Error(`join refused: ${joined.status}`);
      const session = (await joined.json()) as { credential: string; streamUrl: string };
      if (session.streamUrl !== vp.webUrl) throw new Error(`join named ${session.streamUrl}, not ${vp.webUrl}`);
      const claims = JSON.parse(Buffer.from(session.credential.split('.')[1]!, 'base64url').toString('utf8')) as WebSessionClaims;
      return {
        callId,
        // Another tab's credential: the same claims with another session id, signed with the platform's key.
        credential: (sessionId?: string) => (sessionId ? signWebSession({ ...claims, sessionId }, webKey) : session.credential),
      };
    },
    async agent(overrides = {}) {
      const now = new Date().toISOString();
      const agent: Agent = {
        _id: newId('agent'),
        name: 'Receptionist',
        llm_provider: 'openai',
        llm_model: 'gpt-4o-mini',
        tts_provider: 'elevenlabs',
        tts_voice_id: DEFAULT_VOICE.elevenlabs,
        stt_provider: 'deepgram',
        system_prompt: 'You are a helpful receptionist.',
        first_message: 'Hello! Thanks for calling. How can I help you today?',
        recording_enabled: false,
        ambience_enabled: false,
        workspaceId,
        createdAt: now,
        updatedAt: now,
        ...overrides,
      };
      await putNewAgent(deps.db, agent);
      return agent;
    },
    async token(agent, callSid, extra = {}) {
      const numberId = extra.numberId ?? newId('phoneNumber');
      const answer = await openInboundCall(deps, { workspaceId, agentId: agent._id, phoneNumberId: numberId, ourNumber: '+14155550999', caller: extra.from, callSid, ...(extra.agentVersion !== undefined && { agentVersion: extra.agentVersion }) });
      if (answer.kind !== 'connect') throw new Error(`inbound call not answered: ${answer.kind}`);
      return signStreamToken(
        {
          callSid,
          workspaceId,
          callId: answer.call._id,
          ...(extra.exp ? { exp: extra.exp } : {}),
        },
        key,
      );
    },
    async call(agent, extra = {}) {
      const callSid = `CA${randomBytes(16).toString('hex')}`;
      return SimulatedCaller.connect({
        url: mediaUrl,
        callSid,
        customParameters: { token: await vp.token(agent, callSid, extra) },
        playbackSpeed: extra.playbackSpeed,
        echoGain: extra.echoGain,
        noiseLevel: extra.noiseLevel,
      });
    },
    nextCallEnded(timeoutMs = WAIT_MS) {
      const got = ended.shift();
      if (got) return Promise.resolve(got);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no call ended in time')), timeoutMs);
        waiting.push((e) => {
          clearTimeout(timer);
          resolve(e);
        });
      });
    },
    async api(method, path, body) {
      const res = await fetch(`${platform.baseUrl}${path}`, {
        method,
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as unknown };
    },
    async stop() {
      await platform.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return vp;
}

/**
 * A platform whose recognizer hears `said` in every utterance and whose model answers every turn with
 * `answer` (and a summary with "Summary."), with the short apology and failure lines and a short reconnect
 * back-off for the recognizer: the one-turn
 * conversations of the fallback, refusal and vendor-drop files.
 */
export function startTurnPlatform(said: string, answer: string): Promise<VoicePlatform> {
  return startVoicePlatform({
    stt: { transcripts: () => said, finalDelayMs: 50 },
    llm: { ttftMs: 50, tokensPerSecond: 400, reply: (req) => (/summar/i.test(req.messages.system) ? { text: 'Summary.' } : { text: answer }) },
    tts: { firstByteDelayMs: 30, realtimeFactor: 1 },
    // The link's five reconnect attempts before a vendor counts as down, without the 1.5 s of production
    // back-off between them (DEFAULT_STT_LINK): the same attempts, in the same order.
    session: { ...SHORT_LINES, sttLink: { backoffMs: [0, 10, 20, 40, 80] } },
  });
}

/** A test file's {@link startTurnPlatform}, started before its tests and stopped after them. */
export interface TurnConversation {
  /** The file's platform (set once `beforeAll` ran). */
  readonly vp: VoicePlatform;
  greeted(agent: Agent): Promise<SimulatedCaller>;
  /** The caller says the file's line and hears the answer out. */
  sayAndHearAnswer(caller: SimulatedCaller): Promise<void>;
  transcriptOf(callId: string): Promise<string[]>;
}

/**
 * Starts the test file's platform with `start` before its tests and stops it after them; returns the
 * platform's accessor (for helpers built before `beforeAll` has run).
 */
export function filePlatform(start: () => Promise<VoicePlatform>): () => VoicePlatform {
  let vp: VoicePlatform | undefined;
  beforeAll(async () => {
    vp = await start();
  });
  afterAll(async () => {
    await vp?.stop();
  });
  return () => {
    if (!vp) throw new Error('the voice platform starts in beforeAll');
    return vp;
  };
}

/** Registers the file's hooks for a {@link startTurnPlatform} and returns the helpers bound to it. */
export function turnConversation(said: string, answer: string): TurnConversation {
  const started = filePlatform(() => startTurnPlatform(said, answer));
  return {
    get vp() {
      return started();
    },
    greeted: (agent) => greeted(started(), agent),
    sayAndHearAnswer: (caller) => sayAndHearAnswer(caller, said),
    transcriptOf: (callId) => transcriptOf(started(), callId),
  };
}

/** Agent media frames received, in order, as one byte count. */
export const mediaBytes = (caller: SimulatedCaller, fromIndex = 0) =>
  caller.received
    .slice(fromIndex)
    .filter((m) => m.event === 'media')
    .reduce((n, m) => n + Buffer.from(String(m.raw.media.payload), 'base64').length, 0);

/** Polls `probe` every 10 ms until it returns a value (events the tests wait on have no promise of their own). */
export async function waitUntil<T>(probe: () => T | undefined, timeoutMs = WAIT_MS): Promise<T> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (performance.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A number of the workspace in the stand-in's platform account, and a live call on it. */
export async function liveCall(vp: VoicePlatform): Promise<{ numberId: string; callSid: string }> {
  const account = (await vp.deps.telephony.platformAccount())!;
  const twilio = vp.platform.twilio!;
  // A number nobody holds in the stand-in yet: a random pick collided now and then with one held already
  // ("already belongs to an account"), an earlier call's in this file or one from the stand-in's pool.
  let e164: string;
  do e164 = `+1415555${String(Math.floor(1000 + Math.random() * 8999))}`;
  while (twilio.number(e164));
  const held = twilio.addNumber(account.accountSid, e164);
  const now = new Date().toISOString();
  const number: PhoneNumber = {
    _id: newId('phoneNumber'),
    number: e164,
    status: 'active',
    workspaceId: vp.workspaceId,
    agentId: null,
    providerSid: held.sid,
    telephonyAccountSid: account.accountSid,
    createdAt: now,
    updatedAt: now,
  };
  await putNewPhoneNumber(vp.deps.db, vp.deps.secrets, number);
  const call = await vp.deps.telephony.port.createCall(account, { to: '+14155550100', from: e164, twiml: '<Response/>' });
  // The stand-in's call simulator plays the (empty) TwiML and completes the call; once it has, mark it
  // answered again, standing in for a live call whose stream we open ourselves. Twilio redirects
  // (transfers) only calls in progress.
  await vp.platform.callSimulator?.finished(call.sid).catch(() => undefined);
  for (let i = 0; i < 2_000 && twilio.call(call.sid)?.status !== 'completed'; i += 1) await new Promise((r) => setTimeout(r, 10));
  twilio.setCallStatus(call.sid, 'in-progress');
  return { numberId: number._id, callSid: call.sid };
}

/** Starts a call to `agent` and waits until its greeting has played. */
export async function greeted(vp: VoicePlatform, agent: Agent): Promise<SimulatedCaller> {
  const caller = await vp.call(agent);
  await waitUntil(() => caller.echoed.find((e) => !e.flushed));
  await caller.whenIdle();
  return caller;
}

/** The caller says `text` (espeak-ng speech) and waits until the agent's answer has played. */
export async function sayAndHearAnswer(caller: SimulatedCaller, text: string): Promise<void> {
  const before = caller.received.length;
  await caller.play(await speech(text));
  await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
  await caller.whenIdle();
}

/**
 * `afterMs` into the agent's first audio the caller says `text` over it; resolves once the agent was cut
 * (its `clear`) and what it said next has played.
 */
export async function talkOver(caller: SimulatedCaller, text: string, afterMs: number): Promise<void> {
  await caller.waitFor((m) => m.event === 'media');
  await caller.pause(afterMs);
  const talkAt = caller.received.length;
  await caller.play(await speech(text));
  await caller.waitForNext((m) => m.event === 'clear', WAIT_MS, talkAt);
  await waitUntil(() => caller.echoed.find((e) => !e.flushed));
  await caller.whenIdle();
}

/** The call's transcript in history, a line a turn. */
export async function transcriptOf(vp: VoicePlatform, callId: string): Promise<string[]> {
  const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, callId)) as unknown as Record<string, unknown>;
  return String(record.callTranscript).split('\n');
}

/**
 * An LLM stand-in `reply` whose conversation answers are `answer(the caller's last words)`: short lines keep
 * a test quick, since the platform paces the agent's audio in real time (70 ms a character of the TTS
 * stand-in's tone). Summaries, structured output and tool results get the stand-in's default answer.
 */
export function briefReplies(answer: (lastUser: string) => string = () => 'Sure.'): (req: ScriptRequest) => ScriptReply {
  return (req) => {
    const { system, turns, endsWithToolResult } = req.messages;
    if (req.responseSchema || endsWithToolResult || /summar/i.test(system)) return defaultReply(req);
    return { text: answer(turns.filter((t) => t.role === 'user').at(-1)?.text ?? '') };
  };
}

/** The realtime agents the speech-to-speech tests call: one per provider, on a model and voice each vendor lists. */
export const REALTIME_AGENTS = {
  openai: { provider: 'openai', model: 'gpt-realtime', voice: 'marin' },
  google: { provider: 'google', model: 'gemini-2.5-flash-native-audio-preview-09-2025', voice: 'Kore' },
} as const;

/**
 * A platform for realtime agents: both speech-to-speech stand-ins answer 50 ms after a turn, and the cascade
 * (their fallback) hears "Are you still there?" and answers "Still here.", both quickly.
 */
export function startRealtimePlatform(): Promise<VoicePlatform> {
  return startVoicePlatform({
    stt: { transcripts: () => 'Are you still there?', finalDelayMs: 50 },
    llm: { ttftMs: 50, tokensPerSecond: 400, reply: briefReplies(() => 'Still here.') },
    tts: { firstByteDelayMs: 30, realtimeFactor: 8 },
    realtime: { firstAudioDelayMs: 50, stt: { finalDelayMs: 50 } },
    geminiLive: { firstAudioDelayMs: 50, stt: { finalDelayMs: 50 } },
  });
}
