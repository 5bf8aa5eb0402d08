/**
 * Cuts streamed LLM text into phrases for TTS: a phrase ends at `.`, `!`, `?`, `;`, `:` or a newline, once
 * it holds at least `minChars` characters. Flushing at phrase ends (not after ~120 characters, the vendors'
 * default buffering) is what lets speech start after the first sentence instead of the first paragraph.
 */
export interface PhraseSplitterOptions {
  /**
   * Shortest phrase sent on its own. Very short phrases ("Hi.") sound choppy as separate TTS requests and
   * cost a vendor round trip each; ten characters keeps "Sure thing." whole while still flushing early.
   */
  readonly minChars: number;
}

export const DEFAULT_PHRASE_OPTIONS = { minChars: 10 } as const satisfies PhraseSplitterOptions;

const ENDERS = new Set(['.', '!', '?', ';', ':', '\n']);

export class PhraseSplitter {
  private buffer = '';
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
      if (!ENDERS.has(ch)) continue;
      const next = this.buffer[i + 1];
      // A dot between digits ("3.5") or inside a token ("example.com") is not a phrase end; at the end of
      // the buffer we cannot see the next character, so a dot right after a digit waits for it.
      if (ch === '.' || ch === ':') {
        if (next !== undefined && !/\s/.test(next)) continue;
        if (next === undefined && /\d/.test(this.buffer[i - 1] ?? '')) continue;
      }
      const candidate = this.buffer.slice(start, i + 1);
      if (candidate.trim().length < this.options.minChars) continue;
      out.push(candidate.trim());
      start = i + 1;
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
