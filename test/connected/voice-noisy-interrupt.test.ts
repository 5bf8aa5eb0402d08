/**
 * Invariant: on a noisy line (steady background noise under everything the caller sends, about -44 dBFS),
 * real speech still interrupts the agent, and history keeps the words the caller heard. (The noise alone
 * and an "uh-huh" over it never cutting the agent: voice-noisy-caller.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_MARKER } from '../../streaming-service/src/session/speech-handle.js';
import { ANSWER, GREETING, hangUpForTranscript, NOISE, useNoisyLine } from './noisy-line.js';
import { talkOver } from './voice-harness.js';

const line = useNoisyLine();

describe('a caller on a noisy line', () => {
  it('real speech over the noise still interrupts', async () => {
    line.heard = ['Stop, please. I need to talk to a person.'];
    const caller = await line.vp.call(await line.vp.agent({ first_message: GREETING, first_message_interruptible: true }), { noiseLevel: NOISE });
    await talkOver(caller, 'Stop, please. I need to talk to a person.', 1_500);
    const lines = await hangUpForTranscript(line.vp, caller);
    expect(lines).toHaveLength(3);
    const cut = lines[0]!.replace(/^agent: /, '');
    expect(cut.endsWith(INTERRUPTED_MARKER)).toBe(true);
    expect(GREETING.startsWith(cut.slice(0, -INTERRUPTED_MARKER.length))).toBe(true);
    expect(lines.slice(1)).toEqual(['user: Stop, please. I need to talk to a person.', `agent: ${ANSWER}`]);
  });
});
