import type { MediaTransport, SessionNotice } from '../transport/port.js';
import type { SpeechHandle } from './speech-handle.js';
import type { CallState } from './state.js';

/**
 * What the caller's page sees of the call (a browser caller; a phone transport ignores notices): the
 * agent's state and live captions of both sides. Nothing is told once the call's end is decided: the end
 * notice is the last word.
 */
export class Notices {
  constructor(
    private readonly transport: Pick<MediaTransport, 'notify'>,
    private readonly isEnded: () => boolean,
    /** An agent test's call (docs/agent-tests.md): its caller is also told each tool call, as a test chat's is. */
    private readonly agentTest = false,
  ) {}

  /** The page shows three states; the greeting is the agent speaking. */
  state(to: CallState): void {
    const shown = to === 'greeting' ? 'speaking' : to;
    if (shown === 'listening' || shown === 'thinking' || shown === 'speaking') this.send({ type: 'state', state: shown });
  }

  user(text: string, final: boolean): void {
    this.send({ type: 'caption', role: 'user', text, final });
  }

  /** The agent's words: the phrases so far while it speaks, then what was heard. */
  agent(handle: SpeechHandle, final: boolean): void {
    const text = final ? handle.playedText() : handle.phrases.map((p) => p.text).join(' ');
    if (text.trim()) this.send({ type: 'caption', role: 'agent', text, final });
  }

  /** A handoff: the agent the caller talks to from here. */
  handedOver(agentId: string, agentName: string): void {
    this.send({ type: 'agent', agentId, agentName });
  }

  /**
   * A tool call the agent ran, with its arguments: told to an agent test's caller only, even once the end
   * is decided (the call `end_call` ran is ending by then, and the test grades that it was called).
   */
  toolCall(name: string, argumentsJson: string): void {
    if (this.agentTest) this.transport.notify({ type: 'tool_call', name, arguments: parsedArguments(argumentsJson) });
  }

  private send(notice: SessionNotice): void {
    if (!this.isEnded()) this.transport.notify(notice);
  }
}

/** A tool call's arguments as an object; text that is not a JSON object is kept under `_raw`, as a test chat's are. */
function parsedArguments(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { _raw: text };
  } catch {
    return { _raw: text };
  }
}
