import { expect } from 'vitest';
import type { Call } from '../../../lib/domain/call.js';
import type { CallMeasurement } from '../../../lib/domain/call-measurement.js';
import type { HistoryRecord } from '../../../lib/domain/history.js';
import { STREAM_TOKEN_KEY_PURPOSE, verifyStreamToken, type StreamTokenClaims } from '../../../lib/domain/stream-token.js';
import { callPricing } from '../../../lib/services/credits.js';
import { findCall } from '../../../lib/store/calls.js';
import { listLedger } from '../../../lib/store/credits.js';
import type { CallsPlatform } from '../../support/calls.js';

/** What both abandoned-stream files start from: an answered inbound call, and reading what became of it. */
export const CREDITS = 100;

/** The helpers over the file's platform (`platform()` is read when a helper runs, after beforeAll). */
export function streamRig(platform: () => CallsPlatform) {
  const pricing = () => callPricing(platform().deps.config);
  const iso = (ms: number) => new Date(ms).toISOString();
  const tokenIn = (twiml: string) => /<Parameter name="token" value="([^"]+)"\/>/.exec(twiml)?.[1];
  const call = async (c: { workspaceId: string; callId: string }): Promise<Call> => (await findCall(platform().deps.db, c.workspaceId, c.callId))!;

  /** An inbound call answered by an agent: its reservation is taken, its stream not yet claimed. */
  async function answeredCall() {
    const s = await platform().callerSetup(CREDITS);
    expect((await platform().api(s.apiKey, 'PATCH', `/api/phone-numbers/${s.numberId}`, { agentId: s.agentId })).status).toBe(200);
    const rung = await platform().platform.twilio!.ringInbound(s.number, '+14155550190');
    const token = tokenIn(rung.body)!;
    const verified = verifyStreamToken(token, platform().deps.secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE));
    if (!verified.ok) throw new Error('no stream token');
    const claims: StreamTokenClaims = verified.claims;
    return { ...s, token, callSid: rung.callSid, claims, callId: claims.callId };
  }

  async function historyOf(apiKey: string, callId: string): Promise<HistoryRecord | undefined> {
    const res = await platform().api(apiKey, 'GET', `/api/history/${callId}`);
    return res.status === 200 ? (res.body as HistoryRecord) : undefined;
  }

  async function ledgerOf(workspaceId: string, callId: string) {
    return (await listLedger(platform().deps.db, workspaceId)).filter((e) => e.callId === callId);
  }

  /** What the streaming service's end would report, measuring `seconds`. */
  const streamEnd = (c: Awaited<ReturnType<typeof answeredCall>>, seconds: number): CallMeasurement => ({
    workspaceId: c.workspaceId,
    callId: c.callId,
    callSid: c.callSid,
    durationSeconds: seconds,
    endReason: 'customer_hangup',
    transcript: 'Agent: Hello.\nCaller: Bye.',
    summary: 'The caller said goodbye.',
    turnLatencies: [],
    llmUsage: { inputTokens: 0, outputTokens: 0 },
    onWorkspaceKeys: [],
  });

  return { pricing, iso, tokenIn, call, answeredCall, historyOf, ledgerOf, streamEnd };
}
