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
   * The opening phrases' own minimum: at 5, "Sure." goes alone and the caller hears it ~100 ms sooner than
   * when it waited for the next sentence (the pipeline bench: short answer p50 634 against 736 ms at 10, and
   * the 100-call capacity level's CPU and barge-in figures unchanged, docs/benchmarks.md).
   */
  readonly firstMinChars: number;
  /**
   * The opening rules (clause ends, the word count, `firstMinChars`) hold until this much text has gone to
   * speech: "Sure." alone is half a second of voice, and a long sentence after it, cut only at its full stop,
   * left the caller two seconds of silence between the two at 15 tokens a second.
   */
  readonly openingChars: number;
}

export const DEFAULT_PHRASE_OPTIONS = { minChars: 10, firstPhraseWords: 8, firstMinChars: 5, openingChars: 40 } as const satisfies PhraseSplitterOptions;

const ENDERS = new Set(['.', '!', '?', ';', ':', '\n']);
/** Where a clause ends: only the first phrase is cut here. */
const CLAUSE_ENDERS = new Set([',', '—', '–']);

export class PhraseSplitter {
  private buffer = '';
  /** Less than `openingChars` has been cut yet: the opening rules hold ({@link PhraseSplitterOptions.openingChars}). */
  private first = true;
  private spoken = 0;
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
      this.cut(out, candidate);
      start = i + 1;
    }
    if (this.first) {
      // Words with no clause end yet: the first phrase ends at the last word boundary once it holds enough.
      const words = this.buffer.slice(start).trimStart().split(/\s+/);
      const cut = this.buffer.lastIndexOf(' ');
      if (words.length > this.options.firstPhraseWords && cut > start && this.buffer.slice(start, cut).trim().length >= this.options.minChars) {
        this.cut(out, this.buffer.slice(start, cut));
        start = cut + 1;
      }
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private cut(out: string[], phrase: string): void {
    out.push(phrase.trim());
    this.spoken += phrase.trim().length;
    if (this.spoken >= this.options.openingChars) this.first = false;
  }

  /** The rest of the text (end of the LLM stream), or undefined when only whitespace is left. */
  flush(): string | undefined {
    const rest = this.buffer.trim();
    this.buffer = '';
    return rest.length > 0 ? rest : undefined;
  }
}
