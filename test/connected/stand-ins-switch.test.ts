/**
 * Invariant: one real key for each of speech recognition, the model and the voice, set where the platform
 * runs, makes talking to the agent real with no other change (docs/provider-keys.md, "Simulated vendors"):
 * the platform starts no stand-in for those vendors and keeps the operator's base URLs, its calls reach the
 * operator's services with the operator's keys and never a stand-in's, and the notice (from what the
 * platform declares it simulates, STAND_IN_VENDORS) leaves those capabilities out, for them only. The "real
 * services" are vendor servers this test runs on 127.0.0.1, given to the platform as an operator gives a
 * proxy or a self-hosted compatible server: a base URL with its key. A workspace key alone does not switch
 * a vendor the platform runs a stand-in for: the notice keeps it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import type { Agent } from '../../lib/domain/agent.js';
import { issueStandinKey, takePresentedKeys } from '../../lib/local/standins/accounts.js';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { startLlmStandins, type LlmStandins } from '../../lib/local/standins/llm.js';
import { startSttStandins, type SttStandins } from '../../lib/local/standins/stt.js';
import { startTtsStandins, type TtsStandins } from '../../lib/local/standins/tts.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { briefReplies, startVoicePlatform, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

const VENDORS = ['deepgram', 'openai', 'elevenlabs'] as const;
const HEARD = 'I would like to book a table.';
const ANSWER = 'A real answer.';

let vp: VoicePlatform;
let real: { stt: SttStandins; llm: LlmStandins; tts: TtsStandins };
let operator: Record<string, string>;
const keys = Object.fromEntries(VENDORS.map((v) => [v, issueStandinKey(v)])) as Record<(typeof VENDORS)[number], string>;
const saved = { ...process.env };

beforeAll(async () => {
  const none = loadConfig({});
  real = {
    stt: await startSttStandins(none, { transcripts: () => HEARD, finalDelayMs: 50 }),
    llm: await startLlmStandins(none, { ttftMs: 20, tokensPerSecond: 400, reply: briefReplies(() => ANSWER) }),
    tts: await startTtsStandins(none, { firstByteDelayMs: 20, realtimeFactor: 8 }),
  };
  // What the operator sets: one key per capability and, here, where each service is (all on 127.0.0.1).
  operator = {
    DEEPGRAM_API_KEY: keys.deepgram,
    DEEPGRAM_BASE_URL: real.stt.env.DEEPGRAM_BASE_URL!,
    OPENAI_API_KEY: keys.openai,
    OPENAI_BASE_URL: real.llm.env.OPENAI_BASE_URL!,
    ELEVENLABS_API_KEY: keys.elevenlabs,
    ELEVENLABS_BASE_URL: real.tts.env.ELEVENLABS_BASE_URL!,
  };
  Object.assign(process.env, operator);
  vp = await startVoicePlatform();
});
afterAll(async () => {
  await vp?.stop();
  await Promise.all([real?.stt.stop(), real?.llm.stop(), real?.tts.stop()]);
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

const standIns = async (agent: Agent) => {
  const res = await vp.api('GET', `/api/stand-ins?agentId=${agent._id}`, undefined);
  expect(res.status).toBe(200);
  return res.body as { simulated: boolean; notice?: { parts: { capability: string; vendor: string }[]; message: string } };
};

describe('real keys for speech recognition, the model and the voice', () => {
  it('start no stand-in for those vendors and drop them from the notice, theirs only', async () => {
    // The platform's own stand-ins: none for the three vendors with a key.
    expect(vp.platform.voice.stt.control.deepgram).toBeUndefined();
    expect(vp.platform.voice.llm.urls.openai).toBeUndefined();
    expect(vp.platform.voice.tts.control).not.toHaveProperty('elevenlabs');
    // The operator's base URLs and keys are what the platform runs with, none replaced by a stand-in's.
    expect(loadConfig()).toMatchObject(operator);
    expect(loadConfig().STAND_IN_VENDORS.map((p) => `${p.capability}:${p.vendor}`)).not.toContain('stt:deepgram');

    const agent = await vp.agent({ stt_provider: 'deepgram', llm_provider: 'openai', tts_provider: 'elevenlabs' });
    // Phone calls still go to the Twilio stand-in: only telephony is left.
    expect(await standIns(agent)).toMatchObject({ simulated: true, notice: { parts: [{ capability: 'telephony', vendor: 'twilio' }] } });
    // A browser call has no telephony: nothing simulated, and the meeting page has no notice at all.
    expect((await vp.api('GET', `/api/stand-ins?agentId=${agent._id}&channel=web`, undefined)).body).toEqual({ simulated: false });
    const link = await vp.api('POST', '/api/optimus/meeting-link', { assistantId: agent._id });
    const page = await (await fetch((link.body as { room_url: string }).room_url)).text();
    expect(page).toContain('Call with Receptionist');
    expect(page).not.toContain('stand-ins');

    // An agent on other vendors is still simulated for each of its capabilities.
    const other = await vp.agent({ stt_provider: 'assemblyai', llm_provider: 'anthropic', llm_model: 'claude-haiku-4-5', tts_provider: 'cartesia', tts_voice_id: 'a0e99841-438c-4a64-b679-ae501e7d6091' });
    const shown = await standIns(other);
    expect(shown.notice!.parts.map((p) => `${p.capability}:${p.vendor}`)).toEqual(['stt:assemblyai', 'llm:anthropic', 'tts:cartesia', 'telephony:twilio']);
    expect(shown.notice!.message).toContain('set ASSEMBLYAI_API_KEY, ANTHROPIC_API_KEY, CARTESIA_API_KEY and TWILIO_ACCOUNT_SID with TWILIO_AUTH_TOKEN where the platform runs');

    // Without an agent: every vendor still on a stand-in, and none of the three.
    const all = (await vp.api('GET', '/api/stand-ins', undefined)).body as { notice: { parts: { capability: string; vendor: string }[] } };
    expect(all.notice.parts.map((p) => `${p.capability}:${p.vendor}`)).toEqual(['stt:assemblyai', 'stt:speechmatics', 'llm:anthropic', 'llm:google', 'tts:cartesia', 'telephony:twilio']);
    // Another workspace's (or no) agent is unknown; another workspace is not this key's.
    expect((await vp.api('GET', '/api/stand-ins?agentId=agent_01unknown', undefined)).status).toBe(404);
    expect((await vp.api('GET', '/api/stand-ins?workspaceId=ws_someone_else', undefined)).status).toBe(403);

    // A workspace key for a vendor whose base URL is a stand-in's is sent to that stand-in: still simulated.
    expect((await vp.api('PUT', '/api/provider-keys/assemblyai', { apiKey: issueStandinKey('assemblyai') })).status).toBe(200);
    expect((await standIns(other)).notice!.parts.map((p) => p.capability)).toContain('stt');
  });

  it('serve a call from those vendors with those keys and no stand-in of the platform\'s', async () => {
    const agent = await vp.agent({ first_message: 'Luigi.' });
    for (const vendor of VENDORS) takePresentedKeys(vendor);
    const modelRequests = real.llm.control.requests.length;
    const caller = await vp.call(agent, { playbackSpeed: 4 });
    await caller.waitFor((m) => m.event === 'mark', WAIT_MS);
    await caller.whenIdle();
    const before = caller.received.length;
    await caller.play(tone(600));
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle();
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, unknown>;
    for (const vendor of VENDORS) expect(new Set(takePresentedKeys(vendor)), vendor).toEqual(new Set([keys[vendor]]));
    // The operator's model server answered this call (the platform runs no OpenAI stand-in of its own).
    expect(real.llm.control.requests.length).toBeGreaterThan(modelRequests);
    expect(String(record.callTranscript).split('\n')).toEqual(['agent: Luigi.', `user: ${HEARD}`, `agent: ${ANSWER}`]);
  });
});
