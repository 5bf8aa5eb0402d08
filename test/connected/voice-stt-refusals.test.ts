/**
 * Invariant: a transcriber that refuses the call for good (here a workspace's own key the vendor did not
 * issue: AssemblyAI closes 1008, Speechmatics answers 403) costs the call its first choice of transcriber,
 * not the call: it is asked once, not five times, and the agent's `fallback.stt` transcriber hears the
 * caller; with no fallback the caller hears the apology, then the call ends as `error`
 * (docs/voice-pipeline.md, "Vendor failures").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueStandinKey, takePresentedKeys } from '../../lib/local/standins/accounts.js';
import { putProviderKey } from '../../lib/store/provider-keys.js';
import { greeted, sayAndHearAnswer, startVoicePlatform, transcriptOf, waitUntil, type VoicePlatform } from './voice-harness.js';

const SAID = 'A table for two, please.';
const GREETING = 'Hello, Luigi speaking.';
const ANSWER = 'A table for two, noted.';
/** A short failure line (the default is 7 s of audio, played in real time). */
const FAILURE = 'Sorry, please call back.';

let vp: VoicePlatform;

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: () => SAID, finalDelayMs: 50 },
    llm: { ttftMs: 30, tokensPerSecond: 400, reply: (req) => (/summar/i.test(req.messages.system) ? { text: 'Summary.' } : { text: ANSWER }) },
    // The vendor streams faster than real time; the platform's pacer plays it in real time.
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
    session: { failurePhrase: FAILURE },
  });
});
afterAll(async () => {
  await vp?.stop();
});

/** Stores a key for `vendor` that another vendor issued, as a workspace pasting the wrong key would. */
async function foreignKey(vendor: 'assemblyai' | 'speechmatics'): Promise<string> {
  const key = issueStandinKey('deepgram');
  await putProviderKey(vp.deps.db, vp.deps.secrets, vp.workspaceId, vendor, key, key.slice(-4), new Date().toISOString());
  return key;
}

describe('a transcriber that refuses the workspace key', () => {
  it('AssemblyAI (close 1008): asked once, then the fallback transcriber hears the caller', async () => {
    const aai = vp.platform.voice.stt.control.assemblyai!;
    const dg = vp.platform.voice.stt.control.deepgram!;
    const key = await foreignKey('assemblyai');
    aai.reset();
    takePresentedKeys('assemblyai');
    const agent = await vp.agent({ first_message: GREETING, stt_provider: 'assemblyai', fallback: { stt: [{ provider: 'deepgram' }] } });
    const dgBefore = dg.connections;
    const caller = await greeted(vp, agent);
    await waitUntil(() => dg.connections > dgBefore || undefined);
    await sayAndHearAnswer(caller, SAID);
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('customer_hangup');
    expect(await transcriptOf(vp, ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${SAID}`, `agent: ${ANSWER}`]);
    // One refused session with the workspace's key, no retries of a refusal that would repeat itself.
    expect(aai.sessions.map((s) => s.closed?.code)).toEqual([1008]);
    expect(takePresentedKeys('assemblyai')).toEqual([key]);
  });

  it('Speechmatics (403) without a fallback: the caller hears the apology, then the call ends as stt_auth_failed', async () => {
    const sm = vp.platform.voice.stt.control.speechmatics!;
    await foreignKey('speechmatics');
    sm.reset();
    const agent = await vp.agent({ first_message: GREETING, stt_provider: 'speechmatics' });
    const caller = await vp.call(agent);
    const closed = await caller.closed;
    expect(closed.reason).toBe('stt_auth_failed');
    expect(caller.echoed.some((e) => !e.flushed)).toBe(true);
    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('stt_auth_failed');
    expect(ended.record?.callError).toMatchObject({ stage: 'stt', vendor: 'speechmatics' });
    const transcript = await transcriptOf(vp, ended.callId);
    expect(transcript.at(-1)).toBe(`agent: ${FAILURE}`);
    expect(sm.httpRequests.filter((r) => r.status === 403)).toHaveLength(1);
  });
});
