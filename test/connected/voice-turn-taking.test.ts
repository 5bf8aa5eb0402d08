/**
 * Invariant: a caller who stops to think mid-sentence ("A table for ... two at seven.") is answered once,
 * to the whole sentence, not in the pause to the half of it, whether the recognizer ends the fragment's
 * turn by endpointing (`speech_final`) or by its utterance-end fallback (docs/voice-pipeline.md,
 * "Turn-taking"). The opt-out, a whole answer and the settings are in voice-turn-taking-settings.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FIRST, GREETING, REST, ANSWER, turnTakingFile } from './voice-turn-taking-support.js';

const file = turnTakingFile();

describe('a long pause mid-sentence', () => {
  it('ended by endpointing: one reply, to the whole sentence', async () => {
    const { transcript } = await file.pausedSentence(await file.vp.agent({ first_message: GREETING }), 1_500);
    expect(file.answered).toEqual([`${FIRST} ${REST}`]);
    expect(transcript).toEqual([`agent: ${GREETING}`, `user: ${FIRST} ${REST}`, `agent: ${ANSWER}`]);
  });

  it('ended by the utterance-end fallback (final without speech_final): one reply, to the whole sentence', async () => {
    file.vp.platform.voice.stt.control.deepgram!.setScript({ transcripts: ({ utterance }) => (utterance === 0 ? FIRST : REST), finalDelayMs: 50, suppressSpeechFinal: true });
    const { transcript } = await file.pausedSentence(await file.vp.agent({ first_message: GREETING }), 1_800);
    expect(file.answered).toEqual([`${FIRST} ${REST}`]);
    expect(transcript).toEqual([`agent: ${GREETING}`, `user: ${FIRST} ${REST}`, `agent: ${ANSWER}`]);
  });
});
