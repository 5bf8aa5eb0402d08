import type { LlmMessage, LlmToolCall } from '../../../lib/vendors/llm/port.js';

/**
 * The call's conversation as it happened, from which both the LLM messages and the transcript are built.
 * Agent entries hold their speech handle, so what they contribute is decided late: while the utterance is
 * running the model sees its own generated text (it must know what it just said before a tool call); once
 * it has settled or been interrupted, only the phrases the caller heard (mark echoes) count. An entry keeps
 * its place in the order even if its text is known only later.
 */
export interface AgentRound {
  /** Everything the model generated in this round. */
  generated: string;
  readonly toolCalls: LlmToolCall[];
  /** Tool results by call id; each call is executed once and its result kept even after a barge-in. */
  readonly results: Map<string, { name: string; content: string }>;
}

/**
 * What the conversation needs of an agent utterance: a spoken one (a SpeechHandle: what was heard counts)
 * or a written one (a text chat: everything sent counts).
 */
export interface Utterance {
  readonly interrupted: boolean;
  readonly settled: boolean;
  playedText(round?: number): string;
}

export type Entry<H extends Utterance = Utterance> =
  /** `language`: the turn's language as the recognizer detected it (`multi` calls), shown in the transcript. */
  | { readonly type: 'user'; text: string; language?: string }
  | { readonly type: 'agent'; readonly handle: H; readonly rounds: AgentRound[] };

export class Conversation<H extends Utterance = Utterance> {
  readonly entries: Entry<H>[] = [];

  /** A message only the model sees, before the conversation (the instruction to write the greeting). */
  private opening: string | undefined;

  /** Entries before this one are not sent to the model (a handoff whose context is a summary or nothing). */
  private horizon = 0;

  /** A function is read at every request: the prompt can follow the call (the caller's language). */
  constructor(private systemPrompt: string | (() => string)) {}

  /**
   * Another agent takes the conversation over (docs/handoffs.md): its prompt from the next request on, and
   * `note` (who handed over, why, what was gathered) after everything said so far. Without `keep` the model
   * sees nothing said before (the note carries what travels); with it, everything since the start. The
   * transcript keeps every line either way.
   */
  handOver(systemPrompt: string | (() => string), keep: boolean, note: string): void {
    this.systemPrompt = systemPrompt;
    // `keep` is the whole conversation, also what an earlier handoff hid (a hand back to the first agent).
    this.horizon = keep ? 0 : this.entries.length;
    // The greeting instruction was the first agent's: the conversation has started by now.
    this.opening = undefined;
    this.note(note);
  }

  /**
   * Messages only the model sees, added while the conversation runs (`POST /api/calls/{id}/context`): each
   * is a system message at the place it was added, from the next request on; never in the transcript.
   */
  private readonly notes: { readonly at: number; readonly text: string }[] = [];

  /** Adds a {@link notes} message after everything said so far. */
  note(text: string): void {
    this.notes.push({ at: this.entries.length, text });
  }

  /** Sets {@link opening}: sent as the first user message of every request, never in the transcript. */
  open(instruction: string): void {
    this.opening = instruction;
  }

  /** Adds the caller's turn; consecutive caller turns (the agent never answered) merge into one, in the later one's language. */
  addUser(text: string, language?: string): void {
    const last = this.entries.at(-1);
    if (last?.type === 'user') {
      last.text = `${last.text} ${text}`;
      if (language) last.language = language;
    } else if (last?.type === 'agent' && this.entries.length > this.horizon && this.agentText(last) === '' && last.rounds.every((r) => r.toolCalls.length === 0)) {
      // An agent entry the caller never heard and that called no tool is dropped, so the turns merge.
      this.entries.pop();
      this.addUser(text, language);
    } else this.entries.push({ type: 'user', text, ...(language ? { language } : {}) });
  }

  /**
   * The messages the next request would have if the caller's turn ended now with `text` ({@link addUser}),
   * leaving the conversation as it is: what a request started ahead of the turn asks (prefetch.ts).
   */
  messagesWith(text: string): LlmMessage[] {
    const entries = [...this.entries];
    const users = entries.flatMap((e) => (e.type === 'user' ? [[e, e.text] as const] : []));
    this.addUser(text);
    try {
      return this.messages();
    } finally {
      this.entries.splice(0, this.entries.length, ...entries);
      for (const [entry, was] of users) entry.text = was;
    }
  }

  addAgent(handle: H): Extract<Entry<H>, { type: 'agent' }> {
    const entry = { type: 'agent' as const, handle, rounds: [] as AgentRound[] };
    this.entries.push(entry);
    return entry;
  }

  /** Whether an agent entry is still being produced (its generated text is what counts for now). */
  private live(entry: Extract<Entry<H>, { type: 'agent' }>): boolean {
    return !entry.handle.interrupted && !entry.handle.settled;
  }

  private roundText(entry: Extract<Entry<H>, { type: 'agent' }>, round: number): string {
    return this.live(entry) ? entry.rounds[round]!.generated.trim() : entry.handle.playedText(round);
  }

  /** What the caller heard of an agent entry. */
  agentText(entry: Extract<Entry<H>, { type: 'agent' }>): string {
    return entry.handle.playedText();
  }

  /** The messages for the next LLM request. */
  messages(): LlmMessage[] {
    const out: LlmMessage[] = [];
    const system = typeof this.systemPrompt === 'string' ? this.systemPrompt : this.systemPrompt();
    if (system.trim()) out.push({ role: 'system', content: system });
    if (this.opening) out.push({ role: 'user', content: this.opening });
    let note = this.notes.findIndex((n) => n.at >= this.horizon);
    if (note < 0) note = this.notes.length;
    const notesUpTo = (at: number) => {
      for (; note < this.notes.length && this.notes[note]!.at <= at; note += 1) out.push({ role: 'system', content: this.notes[note]!.text });
    };
    for (const [i, entry] of this.entries.entries()) {
      if (i < this.horizon) continue;
      notesUpTo(i);
      if (entry.type === 'user') {
        out.push({ role: 'user', content: entry.text });
        continue;
      }
      entry.rounds.forEach((round, i) => {
        const text = this.roundText(entry, i);
        const calls = round.toolCalls.filter((c) => round.results.has(c.id));
        if (calls.length > 0) {
          out.push({ role: 'assistant', content: text, toolCalls: calls });
          for (const c of calls) {
            const r = round.results.get(c.id)!;
            out.push({ role: 'tool', toolCallId: c.id, name: r.name, content: r.content });
          }
        } else if (text) {
          out.push({ role: 'assistant', content: text });
        }
      });
    }
    notesUpTo(this.entries.length);
    return out;
  }

  /**
   * One line per turn, `agent:` / `user:`, in order; agent lines hold only what was played. A caller turn
   * with a detected language reads `user [de]: …`.
   */
  transcript(): string {
    const lines: string[] = [];
    for (const entry of this.entries) {
      if (entry.type === 'user') lines.push(entry.language ? `user [${entry.language}]: ${entry.text}` : `user: ${entry.text}`);
      else {
        const text = this.agentText(entry);
        if (text) lines.push(`agent: ${text}`);
      }
    }
    return lines.join('\n');
  }
}
