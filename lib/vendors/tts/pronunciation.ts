import { matchKey, type PhoneticAlphabet, type Pronunciation } from '../../domain/pronunciation.js';

/**
 * An agent's pronunciations applied to the text a voice is sent (never to the transcript), each vendor its
 * own way (lib/domain/pronunciation.ts cites where each syntax is documented):
 * - `ssml-phoneme` (ElevenLabs Flash v2 / Turbo v2 / English v1): `<phoneme alphabet="ipa" ph="…">word</phoneme>`,
 *   one tag per word (ElevenLabs: "this only works per word"), so a phrase entry's phonemes wrap it whole only
 *   when it is one word;
 * - `cartesia`: the word replaced by `<<p|h|o|n|e|m|e|s>>`, IPA only, no whitespace inside;
 * - `text`: `say_as` substituted; phoneme entries skipped (the vendor has no inline phonemes).
 * Every style substitutes `say_as`. Matching is whole-word and case-aware (`matchKey`): the longest entry
 * wins where entries overlap, and replaced text is never matched again.
 */
export type PronunciationStyle = 'ssml-phoneme' | 'cartesia' | 'text';

/** The alphabets each style reads; a phoneme entry in any other is skipped. */
const READS: Record<PronunciationStyle, readonly PhoneticAlphabet[]> = {
  'ssml-phoneme': ['ipa', 'cmu-arpabet'],
  cartesia: ['ipa'],
  text: [],
};

/** A rewriter for one voice: the identity when nothing applies (no regex runs per phrase). */
export type Pronouncer = (text: string) => string;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Letters, digits, combining marks and the underscore: what makes a neighbouring character part of a word. */
const WORD_CHAR = String.raw`[\p{L}\p{N}\p{M}_]`;

export function pronouncer(entries: readonly Pronunciation[] | undefined, style: PronunciationStyle): Pronouncer {
  const usable = (entries ?? []).filter((e) => !('phoneme' in e) || READS[style].includes(e.alphabet));
  if (usable.length === 0) return (text) => text;
  // Longest first: "Dr. Nguyen" is tried before "Nguyen". Case-insensitive entries and exact ones are one
  // alternation each side of a flag, so each is its own regex; the text is scanned once by each.
  const sorted = [...usable].sort((a, b) => b.word.length - a.word.length);
  const byKey = new Map(sorted.map((e) => [matchKey(e.word.replace(/\s+/g, ' ')), e]));
  const exact = sorted.filter((e) => matchKey(e.word).startsWith('c:'));
  const folded = sorted.filter((e) => matchKey(e.word).startsWith('i:'));
  const pattern = (list: readonly Pronunciation[], flags: string) =>
    list.length === 0 ? undefined : new RegExp(`(?<!${WORD_CHAR})(?:${list.map((e) => escapeRegExp(e.word).replace(/\s+/g, '\\s+')).join('|')})(?!${WORD_CHAR})`, flags);
  const patterns = [pattern(exact, 'gu'), pattern(folded, 'giu')];
  const render = (found: string, entry: Pronunciation): string => {
    if ('say_as' in entry) return entry.say_as;
    if (style === 'cartesia') return `<<${ipaPhonemes(entry.phoneme).join('|')}>>`;
    // One tag per word (ElevenLabs); a phrase's phonemes cannot be split between its words, so it stays as written.
    if (/\s/.test(found)) return found;
    const ph = entry.alphabet === 'ipa' ? entry.phoneme.replace(/[\s|]+/g, '') : entry.phoneme.replace(/\s+/g, ' ');
    return `<phoneme alphabet="${entry.alphabet}" ph="${ph}">${found}</phoneme>`;
  };
  const lookup = (found: string): Pronunciation | undefined => {
    const normal = found.replace(/\s+/g, ' ');
    return byKey.get(`c:${normal}`) ?? byKey.get(`i:${normal.toLowerCase()}`);
  };
  return (text) => {
    // Replaced spans are marked so the second pattern never matches inside the first's output.
    const pieces: { text: string; done: boolean }[] = [{ text, done: false }];
    for (const re of patterns) {
      if (!re) continue;
      for (let i = 0; i < pieces.length; i += 1) {
        const piece = pieces[i]!;
        if (piece.done) continue;
        const out: { text: string; done: boolean }[] = [];
        let last = 0;
        for (const m of piece.text.matchAll(re)) {
          const entry = lookup(m[0]);
          if (!entry) continue;
          out.push({ text: piece.text.slice(last, m.index), done: false }, { text: render(m[0], entry), done: true });
          last = m.index + m[0].length;
        }
        if (out.length === 0) continue;
        out.push({ text: piece.text.slice(last), done: false });
        pieces.splice(i, 1, ...out);
        i += out.length - 1;
      }
    }
    return pieces.map((p) => p.text).join('');
  };
}

/**
 * IPA as Cartesia's phoneme list: phonemes separated by spaces or `|` are taken as written (`aɪ`, `dʒ` stay
 * one); run together, each character is one, with length marks, diacritics and modifier letters (`ː`, `ʰ`,
 * a tie bar) kept on the character before them.
 */
export function ipaPhonemes(ipa: string): string[] {
  const trimmed = ipa.trim();
  if (/[\s|]/.test(trimmed)) return trimmed.split(/[\s|]+/).filter(Boolean);
  const out: string[] = [];
  for (const ch of trimmed) {
    const attaches = /[\p{M}\u02b0-\u02ff\u1d2c-\u1d6a]/u.test(ch) && !/[ˈˌ]/.test(ch);
    if (attaches && out.length > 0) out[out.length - 1] += ch;
    else out.push(ch);
  }
  return out;
}

/** The words an SSML phoneme tag stands for: what ElevenLabs speaks and aligns (tags replaced by their word). */
export const ssmlSpoken = (text: string): string => text.replace(/<phoneme\b[^>]*>([^<]*)<\/phoneme>/g, '$1');
