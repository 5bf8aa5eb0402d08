/**
 * Invariant: an agent's voicemail settings map onto Twilio's AMD modes (leaving a message always waits for
 * the beep), machine and fax verdicts count as machines while `human` and `unknown` do not, and the call's
 * one limit is the agent's, else the platform's.
 */
import { describe, expect, it } from 'vitest';
import { AgentCreate, callLimitSeconds } from '../../lib/domain/agent.js';
import { isMachine, isMessageEnd, machineDetectionFor } from '../../lib/domain/voicemail.js';

describe('voicemail settings', () => {
  it('asks Twilio for the AMD mode the action needs', () => {
    expect(machineDetectionFor({})).toBeUndefined();
    expect(machineDetectionFor({ voicemail_detection: 'off', voicemail_action: 'leave_message' })).toBeUndefined();
    expect(machineDetectionFor({ voicemail_detection: 'detect' })).toBe('Enable');
    expect(machineDetectionFor({ voicemail_detection: 'detect', voicemail_action: 'leave_message' })).toBe('DetectMessageEnd');
    expect(machineDetectionFor({ voicemail_detection: 'detect_message_end', voicemail_action: 'hang_up' })).toBe('DetectMessageEnd');
  });

  it('reads verdicts the careful way', () => {
    for (const v of ['machine_start', 'machine_end_beep', 'machine_end_silence', 'machine_end_other', 'fax']) expect(isMachine(v), v).toBe(true);
    for (const v of ['human', 'unknown', undefined, '']) expect(isMachine(v), String(v)).toBe(false);
    expect(isMessageEnd('machine_end_beep')).toBe(true);
    expect(isMessageEnd('machine_start')).toBe(false);
  });

  it("has one limit: the agent's, else the platform's; create leaves it unset", () => {
    expect(callLimitSeconds({ max_duration_seconds: 120 }, 600)).toBe(120);
    expect(callLimitSeconds({}, 600)).toBe(600);
    const parsed = AgentCreate.parse({ name: 'a', llm_provider: 'openai', llm_model: 'm', tts_provider: 'deepgram', stt_provider: 'deepgram' });
    expect(parsed).toMatchObject({ voicemail_detection: 'off', voicemail_action: 'hang_up', voicemail_message: '', dtmf_shortcuts: {}, transfer_mode: 'cold' });
    expect(parsed.max_duration_seconds).toBeUndefined();
  });
});
