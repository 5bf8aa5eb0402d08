import type { Deps } from '../deps.js';
import { TERMINAL_CALL_STATES, type Call } from '../domain/call.js';
import { claimStream, findCall, heartbeatStream } from '../store/calls.js';
import { callStartedData } from './call-events.js';
import { announce } from './webhook-events.js';

/**
 * A connected call's stream, from the platform's side: its one claim (which starts the call's
 * conversation and announces `call.started`) and its heartbeat. Its end is connected-call-end.ts.
 */

/**
 * The live call a verified stream token names, read before anything is set up (the token carries only the
 * call's ids): the container builds the session from it, then claims the call last, so a stream whose setup
 * fails does not use up its call. Undefined when there is no such call or it is no longer live.
 */
export async function findStreamCall(deps: Pick<Deps, 'db'>, claims: { workspaceId: string; callId: string }): Promise<Call | undefined> {
  const call = await findCall(deps.db, claims.workspaceId, claims.callId);
  return call && !TERMINAL_CALL_STATES.has(call.status) ? call : undefined;
}

/**
 * Claims the one media stream a stream token admits, before any vendor is touched: the live call (the
 * container reads the agent, number and contact from it), or undefined when a stream was already claimed
 * for it, it has ended or settled, or the sid does not match. A claim announces `call.started`.
 */
export async function claimCallStream(
  deps: Pick<Deps, 'db' | 'secrets' | 'webhooks'>,
  claims: { workspaceId: string; callId: string; callSid: string },
  streamSid: string,
  nowMs: number = Date.now(),
): Promise<Call | undefined> {
  const at = new Date(nowMs).toISOString();
  const call = await claimStream(deps.db, claims.workspaceId, claims.callId, claims.callSid, streamSid, at);
  // Announced beside the call, not before it: the conversation must not wait on a webhook's queue.
  if (call) void announce(deps, call.workspaceId, 'call.started', callStartedData(call, at));
  return call;
}

/**
 * The claimed stream's heartbeat (docs/calls.md, "Abandoned streams"): true while the call is unsettled,
 * false once it was settled (the stream was swept as abandoned, or already ended).
 */
export const heartbeatCallStream = async (
  deps: Pick<Deps, 'db'>,
  claims: { workspaceId: string; callId: string },
  streamSid: string,
  nowMs: number = Date.now(),
): Promise<boolean> => (await heartbeatStream(deps.db, claims.workspaceId, claims.callId, streamSid, new Date(nowMs).toISOString())) !== undefined;
