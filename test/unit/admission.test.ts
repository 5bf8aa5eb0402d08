/**
 * Invariant: every socket kind is admitted in one order: environment, credential, rejoin, setup and vendors,
 * then the claim, last. A refused credential, a rejoin, a failed setup or a socket gone while the setup
 * was read claims nothing (the call is not used up and no vendor is touched); the kind's refusal for each
 * step is what the socket gets. Capacity on the upgrade: 503 while draining, 429 over the client's rate.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../lib/domain/agent.js';
import { Refusal, admitSocket, upgradeGate, type AdmissionEnvironment, type CallRef, type Ticket } from '../../streaming-service/src/admission.js';
import type { SessionServices } from '../../streaming-service/src/call/types.js';

const claims: CallRef = { callId: 'call_1', workspaceId: 'ws_1', agentId: 'agt_1', from: '' };

/** An environment and a ticket that record the steps taken, in order. */
function rig(overrides: Partial<Ticket<AdmissionEnvironment, CallRef, number>> = {}, failServices = false) {
  const steps: string[] = [];
  const env: AdmissionEnvironment = {
    loader: { agent: async (_ws, id) => ({ _id: id }) as Agent, contactByPhone: async () => undefined, tools: async () => [] },
    services: async () => {
      steps.push('services');
      if (failServices) throw new Error('vendor down');
      return {} as SessionServices;
    },
  };
  const ticket: Ticket<AdmissionEnvironment, CallRef, number> = {
    unavailable: new Refusal(1011, 'unavailable'),
    verify: () => (steps.push('verify'), claims),
    ids: () => ({ callSid: 'CA1', streamSid: 'MZ1' }),
    failed: (stage) => (steps.push(`failed:${stage}`), new Refusal(1011, `${stage} failed`)),
    gone: () => false,
    claim: async () => (steps.push('claim'), 600),
    ...overrides,
  };
  return { steps, env, ticket };
}

describe('admitSocket', () => {
  it('claims last, after the credential and the setup, and hands over all of them', async () => {
    const { steps, env, ticket } = rig();
    const admitted = await admitSocket(async () => env, ticket);
    expect(steps).toEqual(['verify', 'services', 'claim']);
    expect(admitted).toMatchObject({ claims, claimed: 600, setup: { callId: 'call_1', callSid: 'CA1', streamSid: 'MZ1' } });
  });

  it('refuses without a claim: no environment, a bad credential, a failed setup', async () => {
    const down = rig();
    expect(await admitSocket(() => Promise.reject(new Error('no table')), down.ticket)).toBe(down.ticket.unavailable);
    expect(down.steps).toEqual([]);

    const bad = new Refusal(1008, 'bad_credential', 'Open your link again.');
    const forged = rig({ verify: () => bad });
    expect(await admitSocket(async () => forged.env, forged.ticket)).toBe(bad);
    expect(forged.steps).toEqual([]);

    const broken = rig({}, true);
    expect(await admitSocket(async () => broken.env, broken.ticket)).toMatchObject({ reason: 'setup failed' });
    expect(broken.steps).toEqual(['verify', 'services', 'failed:setup']);
  });

  it('claims nothing for a rejoin or a socket gone during the setup; a failed or refused claim is refused', async () => {
    const back = rig({ rejoin: () => true });
    expect(await admitSocket(async () => back.env, back.ticket)).toBeUndefined();
    expect(back.steps).toEqual(['verify']);

    const gone = rig({ gone: () => true });
    expect(await admitSocket(async () => gone.env, gone.ticket)).toBeUndefined();
    expect(gone.steps).toEqual(['verify', 'services']);

    const used = new Refusal(1008, 'already_used');
    const taken = rig({ claim: async () => used });
    expect(await admitSocket(async () => taken.env, taken.ticket)).toBe(used);

    const lost = rig({ claim: () => Promise.reject(new Error('throttled')) });
    expect(await admitSocket(async () => lost.env, lost.ticket)).toMatchObject({ reason: 'claim failed' });
  });
});

describe('upgradeGate', () => {
  const req = (ip: string) => ({ headers: { 'x-forwarded-for': `10.0.0.9, ${ip}` }, socket: { remoteAddress: '10.0.0.1' } }) as unknown as IncomingMessage;

  it('refuses every upgrade while draining, and a client over its rate (the ALB-appended address) with 429', () => {
    const gate = upgradeGate({ policy: { name: 'media-stream', limit: 1, windowSeconds: 60 }, behindProxy: true });
    expect(gate(req('203.0.113.1'), true)).toMatch(/^HTTP\/1\.1 503 /);
    expect(gate(req('203.0.113.1'), false)).toBeUndefined();
    expect(gate(req('203.0.113.1'), false)).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\nRetry-After: \d+\r\nRateLimit-Policy: "media-stream";q=1;w=60/);
    expect(gate(req('203.0.113.2'), false)).toBeUndefined();
  });
});
