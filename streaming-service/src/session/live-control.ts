import { AppError, ConflictError } from '../../../lib/domain/errors.js';
import type { LiveCommand, LiveCommandResult, LiveTranscriptEntry } from '../../../lib/domain/live-control.js';
import type { Agent } from '../../../lib/domain/agent.js';
import type { Conversation } from '../conversation/conversation.js';
import type { CallTap } from '../live/tap.js';
import type { CallControl } from './action-context.js';
import type { SpeechHandle } from './speech-handle.js';
import type { TransferResult } from './transfer.js';

/**
 * What the API may do to a call while it runs (docs/live-calls.md): end it (after a closing line), make
 * the agent say something now or next, give the model a note it sees from its next turn on, transfer the
 * caller, and read the state and transcript so far. Runs on the task that holds the call; the commands
 * reach it through the control endpoint (live/control.ts). Each is idempotent where a retry could double it:
 * a second `end` is the first one's answer, and an `Idempotency-Key` seen before answers as before.
 */

export interface LiveControlContext extends Pick<CallControl, 'state' | 'current' | 'interrupt' | 'say' | 'end' | 'isEnded'> {
  readonly conversation: Conversation<SpeechHandle>;
  readonly agent: Pick<Agent, '_id' | 'name'>;
  readonly hasPhoneLine: boolean;
  transfer(to: string, mode?: 'cold' | 'warm', summary?: string): Promise<TransferResult>;
  /** The listeners hear of a transfer's outcome. */
  readonly tap: Pick<CallTap, 'event'>;
}

/** A closing line longer than this is cut off by the end: the API asked for the call to end. */
const CLOSING_LINE_CAP_MS = 20_000;

/** Keys remembered per call: one call takes a handful of commands; the cap bounds a client that loops. */
const MAX_KEYS = 256;

export type LiveOutcome = LiveCommandResult & { readonly status: 'ending' | 'ended' | 'speaking' | 'queued' | 'context_added' | 'transferring' | 'live' };

export class LiveControl {
  private ending: Promise<void> | undefined;
  private transferring = false;
  private readonly seen = new Map<string, { readonly command: string; readonly status: LiveOutcome['status'] }>();

  constructor(private readonly ctx: LiveControlContext) {}

  /** Runs one command; `key` is the request's Idempotency-Key. Throws an AppError (409, 422) when it cannot. */
  run(command: LiveCommand, key?: string): LiveOutcome {
    const body = JSON.stringify(command);
    const before = key ? this.seen.get(key) : undefined;
    if (before && before.command !== body) throw new AppError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.', [{ field: 'Idempotency-Key', message: 'send a new key for a new request' }]);
    if (before) return { ...this.snapshot(), status: before.status, replayed: true };
    const status = this.apply(command);
    if (key && command.kind !== 'status') {
      if (this.seen.size >= MAX_KEYS) this.seen.delete(this.seen.keys().next().value!);
      this.seen.set(key, { command: body, status });
    }
    return { ...this.snapshot(), status };
  }

  private apply(command: LiveCommand): LiveOutcome['status'] {
    if (command.kind === 'status') return this.ctx.isEnded() ? 'ended' : 'live';
    // A second end while the first one's closing line plays is that same end.
    if (command.kind === 'end' && this.ending) return 'ending';
    if (this.ctx.isEnded() || this.ending) throw new ConflictError('call_ended', 'The call has ended.');
    switch (command.kind) {
      case 'end':
        this.ending = this.end(command.message);
        return 'ending';
      case 'say':
        return this.say(command.text, command.mode);
      case 'context':
        this.ctx.conversation.note(command.message);
        return 'context_added';
      case 'transfer':
        return this.transfer(command.to, command.mode, command.summary);
    }
  }

  private async end(message: string | undefined): Promise<void> {
    if (message) {
      this.ctx.interrupt();
      const said = this.ctx.say(message);
      await Promise.race([said.done, new Promise((r) => setTimeout(r, CLOSING_LINE_CAP_MS).unref?.())]);
    }
    this.ctx.end('ended_by_api');
  }

  private say(text: string, mode: 'interrupt' | 'queue'): 'speaking' | 'queued' {
    if (this.ctx.state.state === 'transferring') throw new ConflictError('transfer_in_progress', 'The caller is being transferred.');
    const current = this.ctx.current();
    if (mode === 'interrupt' || !current || current.settled) {
      this.ctx.interrupt();
      this.ctx.say(text);
      return 'speaking';
    }
    void this.sayAfterCurrent(text);
    return 'queued';
  }

  /** Waits out every utterance under way (a reply may start while one finishes), then speaks. */
  private async sayAfterCurrent(text: string): Promise<void> {
    for (let current = this.ctx.current(); current && !current.settled; current = this.ctx.current()) await current.whenSettled();
    if (this.ctx.isEnded() || this.ending || this.ctx.state.isEnding || this.ctx.state.state === 'transferring') return;
    this.ctx.say(text);
  }

  private transfer(to: string, mode: 'cold' | 'warm', summary: string | undefined): 'transferring' {
    if (!this.ctx.hasPhoneLine) throw new ConflictError('no_phone_line', 'This call is in a web browser, not on a phone line: it cannot be transferred.');
    if (this.transferring || this.ctx.state.state === 'transferring') throw new ConflictError('transfer_in_progress', 'A transfer is already under way.');
    this.transferring = true;
    // The agent stops talking: the caller is about to be moved.
    this.ctx.interrupt();
    void this.ctx
      .transfer(to, mode, summary)
      .then((r) => this.ctx.tap.event({ type: 'transfer', to, ok: r.ok, outcome: r.outcome }))
      .finally(() => {
        this.transferring = false;
      });
    return 'transferring';
  }

  /** The call as it stands: the agent's state, the transcript so far (the agent's words as heard), the agent. */
  snapshot(): LiveCommandResult {
    const transcript: LiveTranscriptEntry[] = [];
    for (const entry of this.ctx.conversation.entries) {
      if (entry.type === 'user') transcript.push({ role: 'user', text: entry.text });
      else {
        const text = entry.handle.playedText();
        if (text) transcript.push({ role: 'agent', text });
      }
    }
    return { agentState: this.ctx.state.state, transcript, agent: { id: this.ctx.agent._id, name: this.ctx.agent.name } };
  }
}
