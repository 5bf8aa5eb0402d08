/**
 * Cuts streamed LLM text into phrases for TTS: a phrase ends at `.`, `!`, `?`, `;`, `:` or a newline, once
 * it holds at least `minChars` characters; the first also at a comma or dash, or after a few words. Flushing
 * at phrase ends (not after ~120 characters, the vendors' default buffering) is what lets speech start after
 * the first clause instead of the first paragraph.
 */
export interface PhraseSplitterOptions {
  /**
   * Shortest phrase sent on its own. Very short phrases ("Hi.") sound choppy as separate TTS requests and
   * cost a vendor round trip each; ten characters keeps "Sure thing." whole while still flushing early.
   */
  readonly minChars: number;
  /**
   * The first phrase does not wait for a full stop: it also ends at a clause boundary (a comma or dash), or
   * after this many words with none, at a word boundary. At 60 tokens a second a 20-word first sentence is a
   * third of a second of waiting the caller hears as silence; the voice carries on in the same utterance
   * (speaker.ts: one per turn where the vendor streams phrases), so the cut is not heard.
   */
  readonly firstPhraseWords: number;
  /**
   * The first phrase's own minimum: "Sure." or "Okay," starts the voice while the model writes on. It opens
   * the turn's utterance, which the later phrases stream into where the vendor allows (speaker.ts), so it is
   * not a choppy request of its own there.
   */
  readonly firstMinChars: number;
}

export const DEFAULT_PHRASE_OPTIONS = { minChars: 10, firstPhraseWords: 8, firstMinChars: 5 } as const satisfies PhraseSplitterOptions;

const ENDERS = new Set(['.', '!', '?', ';', ':', '\n']);
/** Where a clause ends: only the first phrase is cut here. */
const CLAUSE_ENDERS = new Set([',', '—', '–']);

export class PhraseSplitter {
  private buffer = '';
  /** No phrase has been cut yet: the first one may end at a clause ({@link PhraseSplitterOptions.firstPhraseWords}). */
  private first = true;
  private readonly options: PhraseSplitterOptions;

  constructor(options: Partial<PhraseSplitterOptions> = {}) {
    this.options = { ...DEFAULT_PHRASE_OPTIONS, ...options };
  }

  /** Adds a delta; returns the phrases it completed (trimmed, non-empty), in order. */
  push(delta: string): string[] {
    this.buffer += delta;
    const out: string[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i += 1) {
      const ch = this.buffer[i]!;
      const clause = this.first && CLAUSE_ENDERS.has(ch);
      if (!ENDERS.has(ch) && !clause) continue;
      const next = this.buffer[i + 1];
      // A dot between digits ("3.5") or inside a token ("example.com") is not a phrase end, nor a comma in
      // "1,000"; at the end of the buffer we cannot see the next character, so one right after a digit waits.
      if (ch === '.' || ch === ':' || ch === ',') {
        if (next !== undefined && !/\s/.test(next)) continue;
        if (next === undefined && /\d/.test(this.buffer[i - 1] ?? '')) continue;
      }
      const candidate = this.buffer.slice(start, i + 1);
      if (candidate.trim().length < (this.first ? this.options.firstMinChars : this.options.minChars)) continue;
      out.push(candidate.trim());
      start = i + 1;
      this.first = false;
    }
    if (this.first) {
      // Words with no clause end yet: the first phrase ends at the last word boundary once it holds enough.
      const words = this.buffer.slice(start).trimStart().split(/\s+/);
      const cut = this.buffer.lastIndexOf(' ');
      if (words.length > this.options.firstPhraseWords && cut > start && this.buffer.slice(start, cut).trim().length >= this.options.minChars) {
        out.push(this.buffer.slice(start, cut).trim());
        start = cut + 1;
        this.first = false;
      }
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** The rest of the text (end of the LLM stream), or undefined when only whitespace is left. */
  flush(): string | undefined {
    const rest = this.buffer.trim();
    this.buffer = '';
    return rest.length > 0 ? rest : undefined;
  }
}
