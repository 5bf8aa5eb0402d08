import type { InterruptionConfig } from '../../../lib/domain/agent.js';
import { PHRASES } from '../call/phrases.js';

/**
 * When caller sound while the agent talks is an interruption, and what to do when it was not. Pure: no
 * timers, no I/O; the session feeds it VAD and STT observations and acts on the returned actions (it owns
 * the one timer, the false-interruption timeout).
 *
 * The rule, after LiveKit Agents (min interruption duration and words, pause then resume on a false
 * interruption) with backchannels filtered out of the word count:
 *
 * - Caller speech over audible agent speech that lasts `minDurationMs` (local VAD) **pauses** the agent's
 *   audio at once: the caller hears the agent stop, without waiting on the recognizer.
 * - The utterance is **interrupted** (aborted, the caller's words become the next turn) only once the
 *   recognizer has `minWords` words in the caller's speech that are not backchannels ("uh-huh", "yeah"), and
 *   the speech lasted `minDurationMs`.
 * - A pause that hears no word is a **false interruption** (a cough, a door, "mm-hmm", a television, a
 *   beeping device): `falseInterruptionTimeoutMs` after the pause the agent **resumes** where the caller
 *   stopped hearing it, whether or not the VAD still hears sound, and that sound pauses it no more until it
 *   ends. The wait runs from the pause, not from the sound's end: a sound that keeps starting again (a beep
 *   every half second) must not keep the agent mute. Once the recognizer has a word, the wait starts over
 *   at each onset and end of the caller's speech, until the turn ends. A turn the recognizer closes with
 *   only backchannels resumes at once.
 * - A caller turn that overlapped the agent and has fewer than `minWords` real words is **not answered**:
 *   it was feedback, not a request.
 * - Except a turn that starts with a **stop word** ("stop", "wait", "hold on"): it interrupts as soon as the
 *   recognizer has it, whatever its length and `minWords`, and is answered.
 */
export interface InterruptionSettings {
  /** Caller speech (VAD) needed before the agent pauses or is interrupted. */
  readonly minDurationMs: number;
  /** Words, backchannels excluded, the recognizer must hear before the agent's utterance is interrupted. */
  readonly minWords: number;
  /**
   * How long a pause that hears no word lasts before the agent resumes (from the pause); once words are
   * heard, the silence after the caller's speech before it resumes.
   */
  readonly falseInterruptionTimeoutMs: number;
  /** Pause-and-resume on; when off, enough speech and words interrupt outright and nothing resumes. */
  readonly resumeFalseInterruption: boolean;
  /** Lower-case words that acknowledge without asking for the floor, in the agent's language. */
  readonly backchannels: ReadonlySet<string>;
  /** Phrases (normalized: {@link transcriptWords} joined by spaces) that stop the agent at once when a caller turn starts with one. */
  readonly stopWords: readonly string[];
}

/**
 * English feedback words; "okay" and "right" count because callers say them to mean "go on". Single words
 * only: "I see" is two words of which neither is feedback alone, so it counts as speech.
 */
export const ENGLISH_BACKCHANNELS: readonly string[] = PHRASES.en.backchannels;

/**
 * English words a caller uses to make the agent stop talking. A turn must start with one: "no" ends a
 * sentence as often as it starts an objection ("yes, no problem" is feedback, "No, I said Tuesday" is not).
 */
export const ENGLISH_STOP_WORDS: readonly string[] = PHRASES.en.stopWords;

/** Stop phrases normalized as transcripts are ({@link transcriptWords}, joined by spaces). */
export function stopPhrases(list: readonly string[]): string[] {
  return list.map((p) => transcriptWords(p).join(' ')).filter(Boolean);
}

/** Scripts written without spaces between words: a stop phrase there may run straight into what follows. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/**
 * ~500 ms and 2 words (LiveKit's defaults are 500 ms and 0 words; 2 keeps a lone "sorry" or "what" from
 * cutting a sentence); 1.5 s to resume, long enough for a cough and its after-silence, short enough that
 * the caller does not think the line died.
 */
export const DEFAULT_INTERRUPTION: InterruptionSettings = {
  minDurationMs: 500,
  minWords: 2,
  falseInterruptionTimeoutMs: 1_500,
  resumeFalseInterruption: true,
  backchannels: new Set(ENGLISH_BACKCHANNELS),
  stopWords: stopPhrases(ENGLISH_STOP_WORDS),
};

export type InterruptionAction =
  /** Stop the agent's audio where it is, keeping the rest to resume. */
  | { readonly type: 'pause' }
  /** Abort the agent's utterance (the caller takes the floor). */
  | { readonly type: 'interrupt' }
  /** Play the paused rest. */
  | { readonly type: 'resume' }
  /** Start (or restart) the false-interruption timer; call {@link InterruptionPolicy.onTimeout} when it fires. */
  | { readonly type: 'arm_timer'; readonly ms: number }
  | { readonly type: 'cancel_timer' };

/** Words in a transcript, lower-cased, punctuation stripped (hyphens and apostrophes kept). */
export function transcriptWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}'\s-]/gu, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^[-']+|[-']+$/g, ''))
    .filter(Boolean);
}

/** What the agent is doing, as the session sees it when it asks. */
export interface AgentActivity {
  /** An utterance (reply, greeting, line) is in progress and may be interrupted. */
  readonly active: boolean;
  /** Its audio is playing at the caller now (so pausing it means something). */
  readonly audible: boolean;
  /** The utterance is a reply to the caller (not a greeting or a fixed line): it may be held before its first sound. */
  readonly replying?: boolean;
}

/**
 * How long a reply held before its first sound ({@link InterruptionPolicy}, "hold") waits for a word from
 * the caller before it plays, from the moment it was held (as a false interruption's wait runs from the
 * pause): a cough or a breath is no sentence, and a sound that keeps starting again (a microphone beeping
 * every 500 ms) must not keep the agent mute. The recognizer's words for a sentence come well within it.
 */
export const HOLD_MAX_MS = 800;

export class InterruptionPolicy {
  private paused = false;
  private inSpeech = false;
  /** Longest VAD speech seen in the caller's current turn. */
  private speechMs = 0;
  /** Real (non-backchannel) words the recognizer has in the caller's current turn. */
  private words = 0;
  /** The caller's current turn overlapped an agent utterance (its words may be feedback). */
  private overlapped = false;
  /** The caller's current turn already interrupted the agent: it took the floor and is answered. */
  private tookFloor = false;
  /** The caller's current turn starts with a stop word. */
  private stop = false;
  /** The VAD's current speech resumed the agent without a word: it is noise, and pauses nothing more. */
  private wordlessSound = false;
  /** A reply not heard yet is held back while the caller speaks again (see {@link onSpeechStart}). */
  private held = false;
  /** A hold ran out without a word: no other until the caller's next turn. */
  private holdSpent = false;
  /** VAD speech runs so far, and the run the recognizer's latest words came in (0: between runs). */
  private runs = 0;
  private runOfLastWords = 0;
  /**
   * The turn just closed while the caller was already saying something new (their next sentence began
   * before the recognizer closed the last): the reply to it is held as soon as it starts, as if the speech
   * had started over it.
   */
  private speakingOverReply = false;

  constructor(
    readonly settings: InterruptionSettings,
    /** Without a local VAD the duration condition cannot be measured and counts as met. */
    private readonly vadAvailable = true,
  ) {}

  get isPaused(): boolean {
    return this.paused;
  }

  /** Words of `text` that are not backchannels. */
  realWords(text: string): number {
    return transcriptWords(text).filter((w) => !this.settings.backchannels.has(w)).length;
  }

  /** `text` starts with one of the stop words (a whole word, or in an unspaced script any prefix). */
  startsWithStop(text: string): boolean {
    const said = transcriptWords(text).join(' ');
    return this.settings.stopWords.some((p) => said === p || said.startsWith(`${p} `) || (UNSPACED.test(p) && said.startsWith(p)));
  }

  /**
   * The VAD confirmed caller speech. Over a reply the caller has not heard a sound of yet (the model is
   * thinking, or its first audio is on the way), the reply is **held**: nothing of it plays while the
   * caller talks. A word from the caller then cancels it, and their words join the turn it answered, so
   * two quick sentences get one answer and nobody talks over the second; no word within
   * {@link HOLD_MAX_MS} of the hold (a cough) lets it play.
   */
  onSpeechStart(agent: AgentActivity): InterruptionAction[] {
    this.inSpeech = true;
    this.runs += 1;
    if (this.held) return [];
    if (this.mayHold(agent)) return this.hold();
    if (agent.audible) this.overlapped = true;
    // Talking again after a pause: with a word heard, the wait starts over; without, the pause's clock runs on.
    return this.paused && this.words > 0 ? [this.armTimer()] : [];
  }

  /** Caller speech goes on; `speechMs` is the VAD's length of the current speech so far. */
  onSpeechProgress(speechMs: number, agent: AgentActivity): InterruptionAction[] {
    this.speechMs = Math.max(this.speechMs, speechMs);
    if (this.speakingOverReply && this.mayHold(agent)) {
      this.speakingOverReply = false;
      return this.hold();
    }
    return this.decide(agent);
  }

  /** The VAD's hangover ran out: the caller stopped. */
  onSpeechEnd(speechMs: number, agent: AgentActivity): InterruptionAction[] {
    this.inSpeech = false;
    this.wordlessSound = false;
    this.speakingOverReply = false;
    this.speechMs = Math.max(this.speechMs, speechMs);
    if (this.held) return this.words > 0 ? this.decide(agent) : [];
    const out = this.decide(agent);
    if (this.paused && this.words > 0) out.push(this.armTimer());
    return out;
  }

  /** The recognizer's text for the caller's current, unfinished turn (finals and the latest interim). */
  onTranscript(turnText: string, agent: AgentActivity): InterruptionAction[] {
    if (agent.audible && turnText.trim()) this.overlapped = true;
    this.words = this.realWords(turnText);
    if (this.words > 0) this.runOfLastWords = this.inSpeech ? this.runs : 0;
    this.stop = this.startsWithStop(turnText);
    return this.decide(agent);
  }

  /**
   * The recognizer closed the caller's turn. `answer` false: the turn was feedback over the agent and is
   * dropped (the paused agent resumes at once).
   */
  onTurnEnd(text: string, agent: AgentActivity): { answer: boolean; actions: InterruptionAction[] } {
    // Only speech over audible agent audio can be feedback: a short answer while the model is still
    // thinking ("tomorrow") is part of the caller's turn and merges into it.
    const feedback = !this.held && !this.tookFloor && (this.overlapped || agent.audible || this.paused) && this.realWords(text) < this.settings.minWords && !this.startsWithStop(text);
    const actions: InterruptionAction[] = [];
    // Words over a held reply are a turn of their own: the session cancels the reply and joins the turns,
    // or, when it answers no turn now (transferring, ending), lets the held audio play on (call-session.ts).
    if (this.held) {
      this.held = false;
      actions.push({ type: 'cancel_timer' });
    }
    // Speech that began after this turn's last words is the caller's next sentence, already under way.
    this.speakingOverReply = !feedback && this.inSpeech && this.runOfLastWords !== this.runs;
    if (feedback && this.paused) actions.push(...this.resume());
    // An answered turn interrupts the utterance itself (the session does that); the pause ends with it.
    if (!feedback && this.paused) {
      this.paused = false;
      actions.push({ type: 'cancel_timer' });
    }
    this.resetTurn();
    return { answer: !feedback, actions };
  }

  /**
   * The false-interruption timer fired: no word since the pause (noise, whether or not it goes on), or the
   * worded speech ended that long ago. Worded speech still going on waits for its turn end, which decides.
   */
  onTimeout(): InterruptionAction[] {
    if (this.held) {
      if (this.words > 0) return [];
      // No word: the reply plays, and the same sounds hold it no more until the caller's next turn.
      this.held = false;
      this.holdSpent = true;
      return [{ type: 'resume' }];
    }
    if (!this.paused) return [];
    if (this.inSpeech && this.words > 0) return [this.armTimer()];
    const noise = this.inSpeech;
    this.resetTurn();
    this.wordlessSound = noise;
    return this.resume();
  }

  /** The utterance was interrupted or ended by other means: nothing is paused any more. */
  onUtteranceGone(): InterruptionAction[] {
    if (this.held) {
      this.held = false;
      return [{ type: 'cancel_timer' }];
    }
    if (!this.paused) return [];
    this.paused = false;
    return [{ type: 'cancel_timer' }];
  }

  private decide(agent: AgentActivity): InterruptionAction[] {
    if (!agent.active) return [];
    if (this.held) {
      if (this.words === 0 && !this.stop) return [];
      this.held = false;
      this.tookFloor = true;
      return [{ type: 'cancel_timer' }, { type: 'interrupt' }];
    }
    const { minDurationMs, minWords, resumeFalseInterruption } = this.settings;
    // A stop word needs no length: the recognizer heard it, so it was speech, and the caller wants the floor.
    if (this.stop) return this.takeFloor();
    // Words the recognizer heard where the VAD heard nothing (a quiet caller) are trusted as they are.
    const vadMissed = this.speechMs === 0 && !this.inSpeech;
    const longEnough = !this.vadAvailable || vadMissed || this.speechMs >= minDurationMs;
    if (!longEnough) return [];
    if (this.words >= minWords) return this.takeFloor();
    if (!this.paused && this.inSpeech && agent.audible && !this.wordlessSound) {
      if (!resumeFalseInterruption) return [];
      this.paused = true;
      // Bounded: sound with no word resumes the agent even while it lasts (see onTimeout).
      return [{ type: 'pause' }, this.armTimer()];
    }
    return [];
  }

  private mayHold(agent: AgentActivity): boolean {
    return agent.active && agent.replying === true && !agent.audible && !this.paused && !this.holdSpent && this.settings.resumeFalseInterruption;
  }

  private hold(): InterruptionAction[] {
    this.held = true;
    return [{ type: 'pause' }, { type: 'arm_timer', ms: HOLD_MAX_MS }];
  }

  private takeFloor(): InterruptionAction[] {
    const wasPaused = this.paused;
    this.paused = false;
    this.tookFloor = true;
    return wasPaused ? [{ type: 'cancel_timer' }, { type: 'interrupt' }] : [{ type: 'interrupt' }];
  }

  private armTimer(): InterruptionAction {
    return { type: 'arm_timer', ms: this.settings.falseInterruptionTimeoutMs };
  }

  private resume(): InterruptionAction[] {
    this.paused = false;
    return [{ type: 'cancel_timer' }, { type: 'resume' }];
  }

  private resetTurn(): void {
    this.holdSpent = false;
    this.speechMs = 0;
    this.words = 0;
    this.stop = false;
    this.overlapped = false;
    this.tookFloor = false;
  }
}

/** The agent's `interruption` object (API field names) over the defaults; `language` is the call's backchannels (call/phrases.ts). */
export function interruptionSettings(config: InterruptionConfig = {}, language?: { readonly backchannels: readonly string[]; readonly stopWords: readonly string[] }): InterruptionSettings {
  const d = language ? { ...DEFAULT_INTERRUPTION, backchannels: new Set(language.backchannels), stopWords: stopPhrases(language.stopWords) } : DEFAULT_INTERRUPTION;
  return {
    minDurationMs: config.min_duration_ms ?? d.minDurationMs,
    minWords: config.min_words ?? d.minWords,
    falseInterruptionTimeoutMs: config.false_interruption_timeout_ms ?? d.falseInterruptionTimeoutMs,
    resumeFalseInterruption: config.resume_false_interruption ?? d.resumeFalseInterruption,
    backchannels: config.backchannels ? new Set(config.backchannels.flatMap(transcriptWords)) : d.backchannels,
    stopWords: config.stop_words ? stopPhrases(config.stop_words) : d.stopWords,
  };
}
