import { DEFAULT_LANGUAGE, languageName, MULTI, primarySubtag } from '../../../lib/domain/language-support.js';
import type { SessionOptions } from '../call/types.js';
import type { SilenceSettings } from './silence.js';
import { ALL_BACKCHANNELS, ALL_STOP_WORDS, PHRASES, phrasesFor, type LanguagePhrases } from '../call/phrases.js';

/** The session options that are fixed lines, which follow the call's language unless a deployment set them. */
const LINE_KEYS = [
  'fillerPhrases', 'stillWorkingPhrases', 'goodbyePhrase', 'apologyPhrase', 'failurePhrase', 'closingPhrase', 'transferHoldPhrase', 'transferFailedPhrase',
] as const satisfies readonly (keyof SessionOptions & keyof LanguagePhrases)[];

/**
 * The language a call is held in (docs/voice-pipeline.md, "Languages"): the agent's, or with `multi` the
 * language the recognizer last heard the caller speak (English until it has heard any). It picks the fixed
 * lines, tells the model which language to answer in, and names the language of each agent utterance for
 * voices that take one per utterance (Cartesia).
 */
export class CallLanguage {
  readonly multi: boolean;
  /** The primary subtag being spoken now. */
  private spoken: string;

  constructor(readonly configured: string = DEFAULT_LANGUAGE) {
    this.multi = configured === MULTI;
    this.spoken = this.multi ? 'en' : primarySubtag(configured);
  }

  /** The language spoken now, as a primary subtag (`es`). */
  get current(): string {
    return this.spoken;
  }

  /** A caller turn's language as the recognizer reported it; followed only under `multi`. */
  heard(language: string | undefined): void {
    if (this.multi && language) this.spoken = primarySubtag(language);
  }

  get phrases(): LanguagePhrases {
    return phrasesFor(this.spoken);
  }

  /** Backchannels: the language's, or every table's under `multi` (callers acknowledge in any of them). */
  get backchannels(): readonly string[] {
    return this.multi ? ALL_BACKCHANNELS : this.phrases.backchannels;
  }

  /** Stop words: the language's, or every table's under `multi`. */
  get stopWords(): readonly string[] {
    return this.multi ? ALL_STOP_WORDS : this.phrases.stopWords;
  }

  /** Continuation words: the language's, or every table's under `multi`. */
  get continuationWords(): readonly string[] {
    return this.multi ? [...new Set(Object.values(PHRASES).flatMap((p) => p.continuationWords))] : this.phrases.continuationWords;
  }

  /**
   * What the model is told about language, after the agent's own prompt; nothing for an English call
   * (what models answer in unless told otherwise), so those prompts stay exactly the agent's.
   */
  instruction(detected = true): string {
    if (!this.multi && primarySubtag(this.configured) === 'en') return '';
    if (this.multi) {
      const follow = 'Always reply in the language the caller is speaking; if they switch language, switch with them.';
      return detected ? `${follow} The caller's last message was in ${languageName(this.spoken)} (${this.spoken}).` : follow;
    }
    return `The call is in ${languageName(this.configured)} (${this.configured}). Always reply in ${languageName(this.configured)}, even if these instructions are written in another language.`;
  }

  /**
   * `options` whose fixed lines follow the language: a line the deployment set (`given`) is kept as set;
   * every other line is read from the language's table each time it is said.
   */
  withLines(options: SessionOptions, given: Partial<SessionOptions>): SessionOptions {
    const out = { ...options };
    for (const key of LINE_KEYS) {
      if (given[key] !== undefined) continue;
      Object.defineProperty(out, key, { get: () => this.phrases[key], enumerable: true });
    }
    return out;
  }
}

/** The system prompt with the call's language instruction after it. */
/** `detected`: a recognizer reports the caller's language (a call), not a text chat. */
export function promptWithLanguage(prompt: string, language: CallLanguage, detected = true): string {
  const instruction = language.instruction(detected);
  if (!instruction) return prompt;
  return prompt.trim() ? `${prompt.trim()}\n\n${instruction}` : instruction;
}

/** The agent's silence settings with the re-prompt in the call's language (read when said) unless the agent set one. */
export function silenceIn(settings: SilenceSettings, agentMessage: string | undefined, language: CallLanguage): SilenceSettings {
  if (agentMessage !== undefined) return settings;
  return Object.defineProperty({ ...settings }, 'repromptMessage', { get: () => language.phrases.repromptMessage, enumerable: true });
}
