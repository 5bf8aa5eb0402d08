/**
 * Invariant: a connected call has one owner at its end. From the streaming service's measurement,
 * `endConnectedCall` reads the call once and settles it, marks it `completed` and releases its widget
 * lease in ONE transaction (no other write to the call or the lease), then writes the record; a second end
 * of the same call charges nothing and keeps the first record.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CallMeasurement } from '../../../lib/domain/call-measurement.js';
import { STREAM_TOKEN_KEY_PURPOSE, verifyStreamToken } from '../../../lib/domain/stream-token.js';
import { claimCallStream } from '../../../lib/services/call-streams.js';
import { endConnectedCall } from '../../../lib/services/connected-call-end.js';
import { callPricing } from '../../../lib/services/credits.js';
import { costFor } from '../../../lib/domain/call.js';
import { findCall } from '../../../lib/store/calls.js';
import { listLedger, readBalance } from '../../../lib/store/credits.js';
import { key } from '../../../lib/store/model.js';
import { takeWidgetLease } from '../../../lib/store/widget-leases.js';
import { startCallsPlatform, type CallsPlatform } from '../../support/calls.js';

const CREDITS = 100;
let p: CallsPlatform;

beforeAll(async () => {
  p = await startCallsPlatform({ streamSweep: false });
});
afterAll(async () => p?.stop());

const tokenIn = (twiml: string) => /<Parameter name="token" value="([^"]+)"\/>/.exec(twiml)?.[1];

/** An inbound call answered and its stream claimed, held as a widget session's lease would hold it. */
async function claimedWidgetCall() {
  const s = await p.callerSetup(CREDITS);
  expect((await p.api(s.apiKey, 'PATCH', `/api/phone-numbers/${s.numberId}`, { agentId: s.agentId })).status).toBe(200);
  const rung = await p.platform.twilio!.ringInbound(s.number, '+14155550191');
  const verified = verifyStreamToken(tokenIn(rung.body)!, p.deps.secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE));
  if (!verified.ok) throw new Error('no stream token');
  const { callId, workspaceId } = verified.claims;
  const keyHash = randomBytes(16).toString('hex');
  await takeWidgetLease(p.deps.db, keyHash, callId, 'visitor', { perKey: 5, perVisitor: 5 }, Date.now() + 60_000);
  await p.deps.db.doc.send(new UpdateCommand({ TableName: p.deps.db.table, Key: key.liveCall(workspaceId, callId), UpdateExpression: 'SET widgetKeyHash = :h', ExpressionAttributeValues: { ':h': keyHash } }));
  expect(await claimCallStream(p.deps, verified.claims, `MZ${randomBytes(16).toString('hex')}`)).toBeDefined();
  return { ...s, callId, workspaceId, keyHash, callSid: rung.callSid };
}

const CALLER_WAIT = { totalMs: 662, endOfTurnMs: 120, llmFirstTokenMs: 300, llmFirstPhraseMs: 80, ttsFirstByteMs: 150, otherMs: 12 };

const measurement = (c: { workspaceId: string; callId: string; callSid: string }, seconds: number): CallMeasurement => ({
  workspaceId: c.workspaceId,
  callId: c.callId,
  callSid: c.callSid,
  durationSeconds: seconds,
  endReason: 'agent_hangup',
  transcript: 'Agent: Hello.\nCaller: Bye.',
  summary: 'The caller said goodbye.',
  turnLatencies: [
    { sttMs: 120, llmFirstTokenMs: 300, llmFirstPhraseMs: 80, ttsFirstByteMs: 150, overheadMs: 12, callerWait: CALLER_WAIT },
    // Interrupted while the agent was thinking: no audio, no wait.
    { sttMs: 90, llmFirstTokenMs: null, llmFirstPhraseMs: null, ttsFirstByteMs: null, overheadMs: null, callerWait: null },
  ],
  llmUsage: { inputTokens: 40, outputTokens: 9 },
  onWorkspaceKeys: [],
});

/** `deps` whose store records the name of every command sent through it. */
function recording() {
  const sent: string[] = [];
  const doc = new Proxy(p.deps.db.doc, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver);
      return (command: { constructor: { name: string } }, ...rest: unknown[]) => {
        sent.push(command.constructor.name);
        return (target.send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
      };
    },
  });
  return { deps: { ...p.deps, db: { ...p.deps.db, doc } }, sent };
}

describe('the end of a connected call', () => {
  it('settles, completes and releases the lease in one transaction, then writes the record from the call', async () => {
    const c = await claimedWidgetCall();
    const { deps, sent } = recording();
    const record = await endConnectedCall(deps, measurement(c, 42));
    const cost = costFor(callPricing(p.deps.config), 42);
    // One read of the call, one transaction; then the record's own write (and its counter) and the event.
    expect(sent.slice(0, 2)).toEqual([GetCommand.name, TransactWriteCommand.name]);
    expect(sent.filter((n) => n === UpdateCommand.name || n === DeleteCommand.name)).toEqual([]);
    const call = await findCall(p.deps.db, c.workspaceId, c.callId);
    expect(call).toMatchObject({ status: 'completed', endReason: 'agent_hangup', billedSeconds: 42, cost });
    expect(call?.settledAt).toBeDefined();
    expect((await p.deps.db.doc.send(new GetCommand({ TableName: p.deps.db.table, Key: key.widgetLease(c.keyHash, c.callId) }))).Item).toBeUndefined();
    expect(record).toMatchObject({
      _id: c.callId,
      agentType: 'voice',
      mobileNumber: '+14155550191',
      callDuration: 42,
      callCost: cost,
      callEndReason: 'agent_hangup',
      callStatus: 'completed',
      callTranscript: 'Agent: Hello.\nCaller: Bye.',
      callSummary: 'The caller said goodbye.',
      callSid: c.callSid,
      llmUsage: { inputTokens: 40, outputTokens: 9 },
    });
    expect(record.turnLatencies).toHaveLength(2);
    // The API answers the turns' caller waits (null for the interrupted one) and the call's summary of them.
    const read = (await p.api(c.apiKey, 'GET', `/api/history/${c.callId}`)).body as Record<string, unknown>;
    expect(read).toMatchObject({ callDuration: 42, callCost: cost, callStatus: 'completed' });
    expect(read.turnLatencies).toEqual(measurement(c, 42).turnLatencies);
    expect(read.latencySummary).toEqual({ turns: 2, measuredTurns: 1, callerWaitP50Ms: 662, callerWaitP90Ms: 662, callerWaitMaxMs: 662 });
  });

  it('a second end of the same call charges nothing and keeps the first record', async () => {
    const c = await claimedWidgetCall();
    await endConnectedCall(p.deps, measurement(c, 30));
    const balance = await readBalance(p.deps.db, c.workspaceId);
    const again = await endConnectedCall(p.deps, { ...measurement(c, 600), summary: 'A retry.' });
    const cost = costFor(callPricing(p.deps.config), 30);
    expect(again).toMatchObject({ callDuration: 30, callCost: cost });
    expect(await readBalance(p.deps.db, c.workspaceId)).toBeCloseTo(balance, 6);
    expect((await listLedger(p.deps.db, c.workspaceId)).filter((e) => e.callId === c.callId).map((e) => e.reason)).toEqual(['call_reservation', 'call_settlement']);
    expect((await p.api(c.apiKey, 'GET', `/api/history/${c.callId}`)).body).toMatchObject({ callDuration: 30, callCost: cost, callSummary: 'The caller said goodbye.' });
  });
});
