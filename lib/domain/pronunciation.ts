import * as z from 'zod';
import { ValidationError, type ErrorDetail } from './errors.js';

/**
 * An agent's pronunciation dictionary (docs/api.md, "pronunciations"): words the voice must say another way,
 * as other words (`say_as`, every vendor) or as phonemes (`phoneme`, where the vendor reads them). Applied to
 * the text sent to the voice only; the transcript and the model keep the written word
 * (lib/vendors/tts/pronunciation.ts applies them per vendor).
 */

/** At most this many entries: each is matched against every phrase the agent speaks. */
export const MAX_PRONUNCIATIONS = 100;

export const PHONETIC_ALPHABETS = ['ipa', 'cmu-arpabet'] as const;
export type PhoneticAlphabet = (typeof PHONETIC_ALPHABETS)[number];

/**
 * The CMU Pronouncing Dictionary's 39 phonemes (cmudict.symbols); vowels carry a stress digit 0-2 or none.
 * ElevenLabs' `cmu-arpabet` alphabet is this set.
 */
export const ARPABET_VOWELS = ['AA', 'AE', 'AH', 'AO', 'AW', 'AY', 'EH', 'ER', 'EY', 'IH', 'IY', 'OW', 'OY', 'UH', 'UW'] as const;
export const ARPABET_CONSONANTS = ['B', 'CH', 'D', 'DH', 'F', 'G', 'HH', 'JH', 'K', 'L', 'M', 'N', 'NG', 'P', 'R', 'S', 'SH', 'T', 'TH', 'V', 'W', 'Y', 'Z', 'ZH'] as const;
const ARPABET = new RegExp(`^(?:(?:${ARPABET_VOWELS.join('|')})[012]?|${ARPABET_CONSONANTS.join('|')})$`);

/**
 * Characters no entry may hold: markup of the vendors' inline syntaxes (SSML `<>&"`, Cartesia's `<<|>>`,
 * Deepgram's `{}`), so an entry can never open or close a tag in the text sent to the voice.
 */
const MARKUP = /[<>&"{}\\]/;

/** The written word or phrase: letters or digits somewhere in it, at most four words. */
const Word = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .refine((w) => !MARKUP.test(w) && !w.includes('|'), { message: 'a word may not contain < > & " { } | or \\' })
  .refine((w) => /[\p{L}\p{N}]/u.test(w), { message: 'a word needs a letter or a digit' })
  .refine((w) => w.split(/\s+/).length <= 4, { message: 'at most four words' });

const SayAs = z
  .string()
  .trim()
  .min(1)
  .max(120)
  .refine((s) => !MARKUP.test(s) && !s.includes('|'), { message: 'say_as is plain words: no < > & " { } | or \\' });

/** IPA as written (`ˈkɑɹtiʒə`, or phonemes separated by spaces for Cartesia: `k ɑ ɹ ˈ t i ʒ ə`). */
const Phoneme = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((s) => !MARKUP.test(s), { message: 'a phoneme string may not contain < > & " { } or \\' });

/** Why an entry matched neither form, in the words of the form it was meant as (the keys it has say which). */
function entryError(iss: { code?: string; input?: unknown; errors?: readonly (readonly { path: PropertyKey[]; message: string }[])[] }): string | undefined {
  const entry = iss.input;
  if (iss.code !== 'invalid_union' || typeof entry !== 'object' || entry === null) return undefined;
  const hasSayAs = 'say_as' in entry;
  const hasPhoneme = 'phoneme' in entry;
  if (hasSayAs && hasPhoneme) return 'give say_as or phoneme, not both';
  if (!hasSayAs && !hasPhoneme) return 'give say_as (the words to say instead) or phoneme (with alphabet ipa or cmu-arpabet)';
  const meant = iss.errors?.[hasSayAs ? 0 : 1] ?? [];
  return meant.map((e) => (e.path.length > 0 ? `${e.path.join('.')}: ${e.message}` : e.message)).join('; ') || undefined;
}

export const Pronunciation = z.union(
  [z.strictObject({ word: Word, say_as: SayAs }), z.strictObject({ word: Word, phoneme: Phoneme, alphabet: z.enum(PHONETIC_ALPHABETS).default('ipa') })],
  { error: entryError },
);
export type Pronunciation = z.infer<typeof Pronunciation>;
export type PhonemeEntry = Extract<Pronunciation, { phoneme: string }>;

/**
 * How an entry finds its word: written in lower case it matches any case ("nguyen" finds "Nguyen" and
 * "NGUYEN"); written with a capital it matches that spelling only ("AWS" leaves "aws" alone). Whole words:
 * "Tom" is not found in "Tomato".
 */
export const matchKey = (word: string): string => (word === word.toLowerCase() ? `i:${word}` : `c:${word}`);

export const Pronunciations = z
  .array(Pronunciation)
  .max(MAX_PRONUNCIATIONS)
  .superRefine((entries, ctx) => {
    const seen = new Set<string>();
    entries.forEach((e, i) => {
      const key = matchKey(e.word);
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'word'], message: `${e.word} is listed twice` });
      seen.add(key);
      if ('phoneme' in e && e.alphabet === 'cmu-arpabet') {
        const bad = e.phoneme.split(/\s+/).find((p) => !ARPABET.test(p));
        if (bad !== undefined) ctx.addIssue({ code: 'custom', path: [i, 'phoneme'], message: `${bad} is not a CMU ARPAbet phoneme (space-separated, e.g. "T AE1 L AH0 N")` });
      }
    });
  });

/**
 * Which phonetic alphabets each voice vendor reads inline, as its documentation says:
 * - ElevenLabs: SSML `<phoneme alphabet="ipa|cmu-arpabet" ph="…">word</phoneme>`, on Eleven Flash v2, Turbo v2
 *   and English v1 only (elevenlabs.io/docs/best-practices/prompting, "Pronunciation"; an agent with phoneme
 *   entries speaks with Flash v2, lib/vendors/tts/elevenlabs.ts);
 * - Cartesia: IPA between `<<` `>>`, phonemes separated by `|` (docs.cartesia.ai, "Specify Custom
 *   Pronunciations"); no ARPAbet;
 * - Deepgram Aura: none on its streaming socket (its inline IPA control is Early Access, REST only:
 *   developers.deepgram.com/docs/tts-voice-controls), so `say_as` only.
 */
export const PHONEME_ALPHABETS_BY_VENDOR: Readonly<Record<'elevenlabs' | 'cartesia' | 'deepgram', readonly PhoneticAlphabet[]>> = {
  elevenlabs: ['ipa', 'cmu-arpabet'],
  cartesia: ['ipa'],
  deepgram: [],
};

/**
 * Phoneme entries the agent's own voice cannot read are refused at save (a field we accept does something):
 * 400 naming the entry and the vendors that read its alphabet. A fallback voice that cannot read them skips them.
 */
export function assertPronunciationsFit(provider: keyof typeof PHONEME_ALPHABETS_BY_VENDOR, entries: readonly Pronunciation[] | null | undefined, language = 'en-US'): void {
  const problems: ErrorDetail[] = [];
  // ElevenLabs reads phoneme tags only on its English models (the agent then speaks eleven_flash_v2).
  const english = /^en(-|$)/i.test(language);
  (entries ?? []).forEach((e, i) => {
    if ('phoneme' in e && provider === 'elevenlabs' && !english) {
      problems.push({ field: `pronunciations.${i}.phoneme`, message: `ElevenLabs reads phoneme tags only with its English models, and this agent speaks ${language}; use say_as with a spelling that sounds right` });
      return;
    }
    if (!('phoneme' in e) || PHONEME_ALPHABETS_BY_VENDOR[provider].includes(e.alphabet)) return;
    const readers = Object.entries(PHONEME_ALPHABETS_BY_VENDOR).flatMap(([v, a]) => (a.includes(e.alphabet) ? [v] : []));
    problems.push({
      field: `pronunciations.${i}.phoneme`,
      message: `tts_provider ${provider} does not read ${e.alphabet} phonemes (${readers.join(' and ')} ${readers.length === 1 ? 'reads them' : 'read them'}); use say_as with a spelling that sounds right`,
    });
  });
  if (problems.length > 0) throw new ValidationError(problems);
}
