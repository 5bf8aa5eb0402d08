/**
 * The inline pronunciation syntaxes the TTS stand-ins accept, checked as the vendors document them, so a
 * client that writes them wrong fails here before it fails in production:
 * - ElevenLabs: `<phoneme alphabet="ipa|cmu-arpabet" ph="…">word</phoneme>`, one word per tag ("this only works
 *   per word", elevenlabs.io/docs/best-practices/prompting, "Phoneme Tags"); read by Flash v2, Turbo v2 and
 *   English v1, ignored (the word is spoken as written) by every other model;
 * - Cartesia: `<<p|h|o|n|e|m|e|s>>`, "pipe characters between phonemes and no whitespace", each word in its
 *   own brackets (docs.cartesia.ai, "Specify Custom Pronunciations").
 */

const TAG = /<phoneme\b([^>]*)>([^<]*)<\/phoneme>/g;
const ATTRS = /^\s+alphabet="(ipa|cmu-arpabet)"\s+ph="([^"]+)"\s*$/;

/** What is wrong with the SSML phoneme tags in `text`, or undefined. */
export function ssmlPhonemeProblem(text: string): string | undefined {
  for (const m of text.matchAll(TAG)) {
    const attrs = ATTRS.exec(m[1]!);
    if (!attrs) return `malformed phoneme tag ${m[0]}: expected <phoneme alphabet="ipa|cmu-arpabet" ph="...">word</phoneme>`;
    if (!m[2]!.trim() || /\s/.test(m[2]!.trim())) return `a phoneme tag wraps exactly one word, not "${m[2]}"`;
  }
  const rest = text.replace(TAG, '');
  if (/<\/?phoneme\b/.test(rest)) return 'unbalanced phoneme tag';
  return undefined;
}

/** The text ElevenLabs speaks: each phoneme tag as its word (read by phoneme-capable models, as written by the rest). */
export const ssmlSpokenText = (text: string): string => text.replace(TAG, '$2');

/** What is wrong with Cartesia's `<<…>>` phoneme groups in `transcript`, or undefined. */
export function cartesiaPhonemeProblem(transcript: string): string | undefined {
  const groups = /<<([^<>]*)>>/g;
  for (const m of transcript.matchAll(groups)) {
    const body = m[1]!;
    if (body.length === 0) return 'an empty custom pronunciation <<>>';
    if (/\s/.test(body)) return `custom pronunciation ${m[0]} has whitespace: phonemes are separated by | with no spaces`;
    if (/\|\|/.test(body) || body.startsWith('|')) return `custom pronunciation ${m[0]} has an empty phoneme`;
  }
  if (/<<|>>/.test(transcript.replace(groups, ''))) return 'unbalanced << >> in the transcript';
  return undefined;
}
