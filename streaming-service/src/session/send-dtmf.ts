import type { ActionContext } from './action-context.js';
import { dtmfAudio, SENDABLE_DIGITS } from './dtmf-tones.js';
import type { SpeechHandle } from './speech-handle.js';

/**
 * The `send_dtmf` tool: plays the keys' tones into the call as part of the current utterance (a phrase
 * with no text, so the transcript keeps only words) and waits until they have played, so the model's next
 * words do not talk over them. Only a call with a phone line has a keypad at the other end.
 */
export async function sendDtmf(ctx: Pick<ActionContext, 'hasPhoneLine' | 'out'>, handle: SpeechHandle, digits: string, round: number): Promise<{ sent: string } | { error: string }> {
  if (!ctx.hasPhoneLine) return { error: 'this call has no phone line: there is no keypad to press' };
  const keys = digits.replace(/[\s,-]/g, '');
  if (!SENDABLE_DIGITS.test(keys)) return { error: 'digits must be 1 to 32 of 0-9, *, # (w waits half a second); nothing was sent' };
  if (handle.interrupted) return { error: 'the caller spoke first; the keys were not sent' };
  const phrase = handle.addPhrase('', round);
  ctx.out.enqueueAudio(handle.id, dtmfAudio(keys));
  handle.markSent(phrase);
  ctx.out.enqueueMark(handle.id, phrase.markName);
  await handle.whenQuiet();
  return phrase.status === 'played' ? { sent: keys } : { error: 'the keys were cut off before they all played' };
}
