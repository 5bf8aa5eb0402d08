/**
 * Invariant: an agent's pronunciations change only the text sent to the voice, each vendor its documented
 * way (ElevenLabs SSML phoneme tags on the models that read them, Cartesia `<<a|b>>`, plain substitution
 * elsewhere), matching whole words with the case rule docs/api.md states, longest entry first, never inside
 * text already replaced; entries that could break a vendor's markup, bad ARPAbet, duplicates and phonemes a
 * voice cannot read are refused; the stand-ins refuse malformed inline syntax as the vendors document it.
 */
import { describe, expect, it } from 'vitest';
import { AgentCreate } from '../../lib/domain/agent.js';
import { ValidationError, type ErrorDetail } from '../../lib/domain/errors.js';
import { assertPronunciationsFit, Pronunciations, type Pronunciation } from '../../lib/domain/pronunciation.js';
import { cartesiaPhonemeProblem, ssmlPhonemeProblem, ssmlSpokenText } from '../../lib/local/standins/pronunciation-syntax.js';
import { elevenLabsModel } from '../../lib/vendors/tts/elevenlabs.js';
import { ipaPhonemes, pronouncer, ssmlSpoken } from '../../lib/vendors/tts/pronunciation.js';

const entries = (list: unknown[]): Pronunciation[] => Pronunciations.parse(list);

const DICT = entries([
  { word: 'nguyen', phoneme: 'wɪn' },
  { word: 'AWS', say_as: 'A W S' },
  { word: 'Dr. Nguyen', say_as: 'Doctor Win' },
  { word: 'talon', phoneme: 'T AE1 L AH0 N', alphabet: 'cmu-arpabet' },
  { word: 'Tom', say_as: 'Thomas' },
]);

describe('pronouncer', () => {
  it('substitutes say_as for every vendor, whole words only, and keeps the rest of the text as written', () => {
    const text = pronouncer(DICT, 'text');
    expect(text('Ask AWS about Tomato, Tom.')).toBe('Ask A W S about Tomato, Thomas.');
    // Phoneme entries do nothing where the vendor reads no phonemes.
    expect(text('Mr nguyen and a talon.')).toBe('Mr nguyen and a talon.');
  });

  it('matches a lower-case entry in any case and a capitalised one only as written', () => {
    const text = pronouncer(entries([{ word: 'invisalign', say_as: 'in vizz a line' }, { word: 'AWS', say_as: 'A W S' }]), 'text');
    expect(text('Invisalign, INVISALIGN and invisalign.')).toBe('in vizz a line, in vizz a line and in vizz a line.');
    expect(text('aws and Aws and AWS')).toBe('aws and Aws and A W S');
  });

  it('tries the longest entry first and never matches inside a replacement', () => {
    const ssml = pronouncer(DICT, 'ssml-phoneme');
    expect(ssml('Dr. Nguyen will see you; Nguyen is kind.')).toBe('Doctor Win will see you; <phoneme alphabet="ipa" ph="wɪn">Nguyen</phoneme> is kind.');
    // "Thomas" contains no entry, and the tag's own text is not scanned again.
    const loop = pronouncer(entries([{ word: 'win', say_as: 'Nguyen' }, { word: 'nguyen', say_as: 'win' }]), 'text');
    expect(loop('win nguyen')).toBe('Nguyen win');
  });

  it('writes ElevenLabs SSML phoneme tags in IPA (spaces dropped) and ARPAbet (spaces kept)', () => {
    const ssml = pronouncer(entries([{ word: 'nguyen', phoneme: 'w ɪ n' }, ...DICT.slice(3)]), 'ssml-phoneme');
    expect(ssml('Nguyen has a talon.')).toBe('<phoneme alphabet="ipa" ph="wɪn">Nguyen</phoneme> has a <phoneme alphabet="cmu-arpabet" ph="T AE1 L AH0 N">talon</phoneme>.');
    expect(ssmlSpoken(ssml('Nguyen has a talon.'))).toBe('Nguyen has a talon.');
  });

  it('writes Cartesia phonemes between << >> with | between them, IPA only', () => {
    const cartesia = pronouncer(entries([{ word: 'cartesia', phoneme: 'k ɑ ɹ ˈ t i ʒ ə' }, { word: 'bayou', phoneme: 'ˈbɑːju' }, ...DICT.slice(3)]), 'cartesia');
    expect(cartesia('Cartesia on the bayou, a talon.')).toBe('<<k|ɑ|ɹ|ˈ|t|i|ʒ|ə>> on the <<ˈ|b|ɑː|j|u>>, a talon.');
    expect(cartesiaPhonemeProblem(cartesia('Cartesia on the bayou.'))).toBeUndefined();
  });

  it('splits run-together IPA into characters, keeping length marks and diacritics on theirs', () => {
    expect(ipaPhonemes('ˈbɑːju')).toEqual(['ˈ', 'b', 'ɑː', 'j', 'u']);
    expect(ipaPhonemes('tʰæ̃n')).toEqual(['tʰ', 'æ̃', 'n']);
    expect(ipaPhonemes('d͡ʒ|ɛ|m')).toEqual(['d͡ʒ', 'ɛ', 'm']);
  });

  it('is the identity with no entries', () => {
    expect(pronouncer(undefined, 'cartesia')('Hello <there>')).toBe('Hello <there>');
  });
});

describe('validation', () => {
  const base = { name: 'A', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', stt_provider: 'deepgram' };

  it('refuses markup, bad ARPAbet, duplicates, long lists and unknown fields', () => {
    const bad = [
      [{ word: 'x<y', say_as: 'z' }],
      [{ word: 'ok', say_as: '<break time="1s"/>' }],
      [{ word: 'ok', phoneme: 'a"b' }],
      [{ word: 'talon', phoneme: 'T AE9 L', alphabet: 'cmu-arpabet' }],
      [{ word: 'talon', phoneme: 'QQ', alphabet: 'cmu-arpabet' }],
      [{ word: 'Nguyen', say_as: 'a' }, { word: 'Nguyen', say_as: 'b' }],
      [{ word: 'a b c d e', say_as: 'x' }],
      [{ word: '...', say_as: 'x' }],
      [{ word: 'ok', say_as: 'x', phoneme: 'y' }],
      [{ word: 'ok', phoneme: 'y', alphabet: 'x-sampa' }],
      Array.from({ length: 101 }, (_, i) => ({ word: `w${i}`, say_as: 'x' })),
    ];
    for (const list of bad) expect(AgentCreate.safeParse({ ...base, pronunciations: list }).success, JSON.stringify(list).slice(0, 80)).toBe(false);
    // Same word, other case rule: two entries.
    expect(AgentCreate.safeParse({ ...base, pronunciations: [{ word: 'aws', say_as: 'a' }, { word: 'AWS', say_as: 'b' }] }).success).toBe(true);
    expect(AgentCreate.parse({ ...base, pronunciations: [{ word: 'x', phoneme: 'ks' }] }).pronunciations).toEqual([{ word: 'x', phoneme: 'ks', alphabet: 'ipa' }]);
  });

  it('says what an entry that is neither form lacks, in the words of the form it was meant as', () => {
    const said = (entry: Record<string, unknown>) => Pronunciations.safeParse([entry]).error?.issues.map((i) => i.message);
    expect(said({ word: 'ok' })).toEqual(['give say_as (the words to say instead) or phoneme (with alphabet ipa or cmu-arpabet)']);
    expect(said({ word: 'ok', say_as: 'x', phoneme: 'y' })).toEqual(['give say_as or phoneme, not both']);
    expect(said({ word: 'ok', phoneme: 'y', alphabet: 'klingon' })).toEqual(['alphabet: Invalid option: expected one of "ipa"|"cmu-arpabet"']);
    expect(said({ word: 'ok', say_as: 'x', alphabet: 'ipa' })).toEqual(['Unrecognized key: "alphabet"']);
  });

  it('refuses phonemes the agent’s voice cannot read, naming who reads them', () => {
    const ipa = entries([{ word: 'nguyen', phoneme: 'wɪn' }]);
    const arpa = entries([{ word: 'talon', phoneme: 'T AE1 L AH0 N', alphabet: 'cmu-arpabet' }]);
    expect(() => assertPronunciationsFit('elevenlabs', [...ipa, ...arpa])).not.toThrow();
    expect(() => assertPronunciationsFit('cartesia', ipa)).not.toThrow();
    const refused = (provider: 'cartesia' | 'deepgram', list: Pronunciation[]) => {
      try {
        assertPronunciationsFit(provider, list);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).details as readonly ErrorDetail[];
      }
      throw new Error('accepted');
    };
    expect(refused('cartesia', arpa)).toEqual([{ field: 'pronunciations.0.phoneme', message: expect.stringContaining('(elevenlabs reads them)') }]);
    expect(refused('deepgram', ipa)[0]!.message).toContain('(elevenlabs and cartesia read them)');
    expect(() => assertPronunciationsFit('deepgram', entries([{ word: 'AWS', say_as: 'A W S' }]))).not.toThrow();
  });

  it('refuses ElevenLabs phoneme entries for an agent that does not speak English (its tags need an English model)', () => {
    const ipa = entries([{ word: 'nguyen', phoneme: 'wɪn' }]);
    expect(() => assertPronunciationsFit('elevenlabs', ipa, 'en-GB')).not.toThrow();
    for (const language of ['es-ES', 'multi']) {
      let details: unknown;
      try {
        assertPronunciationsFit('elevenlabs', ipa, language);
      } catch (error) {
        details = (error as ValidationError).details;
      }
      expect(details, language).toEqual([{ field: 'pronunciations.0.phoneme', message: expect.stringContaining('only with its English models') }]);
    }
    expect(() => assertPronunciationsFit('elevenlabs', entries([{ word: 'Nguyen', say_as: 'win' }]), 'es-ES')).not.toThrow();
    expect(() => assertPronunciationsFit('cartesia', ipa, 'es-ES')).not.toThrow();
  });

  it('speaks ElevenLabs phoneme entries with Flash v2, the flash model that reads the tags', () => {
    expect(elevenLabsModel({})).toBe('eleven_flash_v2_5');
    expect(elevenLabsModel({ pronunciations: entries([{ word: 'AWS', say_as: 'A W S' }]) })).toBe('eleven_flash_v2_5');
    expect(elevenLabsModel({ pronunciations: entries([{ word: 'nguyen', phoneme: 'wɪn' }]) })).toBe('eleven_flash_v2');
    expect(elevenLabsModel({ model: 'eleven_turbo_v2', pronunciations: entries([{ word: 'nguyen', phoneme: 'wɪn' }]) })).toBe('eleven_turbo_v2');
  });
});

describe('stand-in syntax checks', () => {
  it('ElevenLabs: well-formed tags around one word; the spoken text is the word', () => {
    expect(ssmlPhonemeProblem('Hi <phoneme alphabet="ipa" ph="wɪn">Nguyen</phoneme>.')).toBeUndefined();
    expect(ssmlPhonemeProblem('<phoneme ph="wɪn">Nguyen</phoneme>')).toMatch(/malformed/);
    expect(ssmlPhonemeProblem('<phoneme alphabet="ipa" ph="x">Dr Nguyen</phoneme>')).toMatch(/one word/);
    expect(ssmlPhonemeProblem('<phoneme alphabet="ipa" ph="x">Nguyen')).toMatch(/unbalanced/);
    expect(ssmlSpokenText('Hi <phoneme alphabet="ipa" ph="wɪn">Nguyen</phoneme>.')).toBe('Hi Nguyen.');
  });

  it('Cartesia: pipes between phonemes, no whitespace, balanced brackets', () => {
    expect(cartesiaPhonemeProblem('Can I get <<x|a|l|a|p|e|ɲ|o>> on that?')).toBeUndefined();
    expect(cartesiaPhonemeProblem('<<h|ɑː|l|ˈə|p|eɪ|n|y|ˌoʊ|>>')).toBeUndefined();
    expect(cartesiaPhonemeProblem('<<x a>>')).toMatch(/whitespace/);
    expect(cartesiaPhonemeProblem('<<x||a>>')).toMatch(/empty phoneme/);
    expect(cartesiaPhonemeProblem('<<>>')).toMatch(/empty/);
    expect(cartesiaPhonemeProblem('<<x|a')).toMatch(/unbalanced/);
  });
});
