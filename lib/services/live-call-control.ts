import { liveControlUrl, liveListenUrl } from '../config.js';
import type { Deps } from '../deps.js';
import type { Call } from '../domain/call.js';
import { AppError, BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError, type ErrorCode } from '../domain/errors.js';
import { IdempotencyKey } from '../domain/call.js';
import { isCallLive } from '../domain/live-call.js';
import {
  CONTROL_TOKEN_KEY_PURPOSE,
  LISTEN_HEADER_BYTES,
  LISTEN_TOKEN_KEY_PURPOSE,
  LiveCommandResult,
  signControlToken,
  signListenToken,
  type ListenResult,
  type LiveCommand,
  type LiveControlResult,
} from '../domain/live-control.js';
import { log } from '../observability/log.js';
import { findCall } from '../store/calls.js';

/**
 * Steering a call in progress from the API (docs/live-calls.md): the command goes, signed for its one call
 * and body, to the streaming service's `/live/control`; the task holding the call runs it (another task
 * forwards it there). Here: the workspace's call (404 otherwise), live (409 otherwise) and connected.
 */

type ControlDeps = Pick<Deps, 'db' | 'config' | 'secrets'>;

/** The API waits this long for the task; a command is run at once, so a slower answer is a task in trouble. */
const CONTROL_TIMEOUT_MS = 10_000;

/** The workspace's call, or 404 (a campaign's tombstone is not a call). */
async function ownCall(deps: Pick<Deps, 'db'>, ws: string, callId: string): Promise<Call> {
  const call = await findCall(deps.db, ws, callId);
  if (!call || (call as { tombstone?: boolean }).tombstone) throw new NotFoundError('Call');
  return call;
}

const ended = () => new ConflictError('call_ended', 'The call has ended.');

/** A live voice call with a stream to reach: a chat has no voice, a call still ringing no stream yet. */
function checkControllable(call: Call): void {
  if (call.agentType === 'chat') throw new BadRequestError('A text chat has no voice to steer or listen to.');
  if (!isCallLive(call)) throw ended();
  if (!call.streamSid) throw new ConflictError('call_not_connected', 'The call is not connected yet: try again once it is answered.');
}

/** Sends one command to the task holding the call; its answer, or the AppError it refused with. */
async function send(deps: ControlDeps, call: Call, command: LiveCommand, idempotencyKey?: string): Promise<(LiveCommandResult & { status: string }) | 'gone'> {
  const body = JSON.stringify(command);
  const token = signControlToken({ workspaceId: call.workspaceId, callId: call._id }, body, deps.secrets.deriveKey(CONTROL_TOKEN_KEY_PURPOSE));
  let res: Response;
  try {
    res = await fetch(liveControlUrl(deps.config), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      body,
      signal: AbortSignal.timeout(CONTROL_TIMEOUT_MS),
    });
  } catch (cause) {
    throw new ServiceUnavailableError(2, { cause });
  }
  const answer = (await res.json().catch(() => undefined)) as { error?: { code: ErrorCode; message: string; details?: [] } } | undefined;
  if (res.status === 200) return { ...LiveCommandResult.parse(answer), status: String((answer as { status?: unknown }).status) };
  // No task holds it: it ended (or its task died, and the sweep will settle it) between our read and now.
  if (res.status === 404) return 'gone';
  if ((res.status === 409 || res.status === 422) && answer?.error) throw new AppError(res.status, answer.error.code, answer.error.message, answer.error.details ?? []);
  log('warn', 'live control refused by the streaming service', { callId: call._id, status: res.status });
  throw new ServiceUnavailableError(2);
}

function parseKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const parsed = IdempotencyKey.safeParse(header);
  if (!parsed.success) throw new BadRequestError('Idempotency-Key is 1 to 255 printable ASCII characters.', [{ field: 'Idempotency-Key', message: 'invalid' }], 'validation_failed');
  return parsed.data;
}

/**
 * Runs `end`, `say`, `context` or `transfer` on the workspace's live call. Ending is idempotent: a call
 * this API already ended answers `ended` again; any other command on a call that is over is 409.
 */
export async function controlCall(deps: ControlDeps, ws: string, callId: string, command: Exclude<LiveCommand, { kind: 'status' }>, idempotencyKey?: string): Promise<LiveControlResult> {
  const key = parseKey(idempotencyKey);
  const call = await ownCall(deps, ws, callId);
  const endedByUs = () => command.kind === 'end' && call.endReason === 'ended_by_api';
  if (!isCallLive(call) && endedByUs()) return { id: callId, status: 'ended' };
  checkControllable(call);
  const answer = await send(deps, call, command, key);
  if (answer !== 'gone') return { id: callId, status: answer.status as LiveControlResult['status'], ...(answer.replayed ? { replayed: true } : {}) };
  const now = await ownCall(deps, ws, callId);
  if (command.kind === 'end' && now.endReason === 'ended_by_api') return { id: callId, status: 'ended' };
  throw isCallLive(now) ? new ConflictError('call_not_connected', 'The call is not reachable right now: try again in a moment.') : ended();
}

/** The live part of `GET /api/calls/{id}`: the transcript so far, the agent's state and the agent; undefined when unreachable. */
export async function liveStateOf(deps: ControlDeps, call: Call): Promise<LiveCommandResult | undefined> {
  if (call.agentType === 'chat' || !isCallLive(call) || !call.streamSid) return undefined;
  try {
    const answer = await send(deps, call, { kind: 'status' });
    return answer === 'gone' ? undefined : { agentState: answer.agentState, transcript: answer.transcript, agent: answer.agent };
  } catch (error) {
    // The record is still worth answering with: the live part is left out, and the log says why.
    log('warn', 'live state unavailable', { callId: call._id, error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

/** A signed, single-call listen URL for the workspace's live call (docs/live-calls.md, "Listen"). */
export async function listenToCall(deps: ControlDeps, ws: string, callId: string, nowMs = Date.now()): Promise<ListenResult> {
  const call = await ownCall(deps, ws, callId);
  checkControllable(call);
  const { token, exp } = signListenToken({ workspaceId: ws, callId }, deps.secrets.deriveKey(LISTEN_TOKEN_KEY_PURPOSE), nowMs);
  const url = new URL(liveListenUrl(deps.config));
  url.searchParams.set('token', token);
  return {
    url: url.toString(),
    expiresAt: new Date(exp * 1000).toISOString(),
    // A call on one of our numbers is Twilio's 8 kHz; a browser call (meeting, widget) is 16 kHz.
    format: { encoding: 'pcm_s16le', sampleRate: call.phoneNumberId ? 8_000 : 16_000, channels: ['caller', 'agent'], headerBytes: LISTEN_HEADER_BYTES },
  };
}
