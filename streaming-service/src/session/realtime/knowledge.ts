import type { RealtimeClientEvent } from 'openai/resources/realtime/realtime';
import type { KnowledgeHit } from '../../../../lib/domain/knowledge/schema.js';
import { describeError, type Logger } from '../../../../lib/observability/log.js';
import { AUTO_CHUNKS, RETRIEVAL_TIMEOUT_MS, contextMessage, knowledgeUse, searchWithin } from '../../conversation/knowledge.js';
import type { TurnHost } from '../../conversation/turn-loop.js';

/**
 * `auto` knowledge on a realtime call (docs/realtime.md, "The call"): the model does not answer a caller's
 * turn by itself (`turn_detection.create_response: false`); once the turn is transcribed its words are searched
 * as the cascade searches them (conversation/knowledge.ts: the same chunks, timeout and system text), the
 * passages go in as a `system` message item (`conversation.item.create`), and `response.create` asks for the
 * answer. A turn the caller talked on from before its passages came back is answered with the next one.
 */
export class RealtimeKnowledge {
  /** Bumped when the caller starts speaking: a lookup that finds it moved on does not ask for an answer. */
  private turn = 0;

  constructor(
    private readonly turns: TurnHost,
    private readonly log: Logger,
    private readonly send: (event: RealtimeClientEvent) => void,
    private readonly open: () => boolean,
  ) {}

  /** True when the agent's knowledge is searched before every answer: the model must wait for it. */
  get auto(): boolean {
    return this.turns.knowledge?.mode === 'auto';
  }

  callerSpeaking(): void {
    this.turn += 1;
  }

  /** The caller's turn, transcribed: its passages for the model, then its answer. */
  async answer(text: string): Promise<void> {
    const turn = this.turn;
    const hits = await this.search(text);
    if (turn !== this.turn || !this.open()) return;
    if (hits.length > 0) {
      this.send({ type: 'conversation.item.create', item: { type: 'message', role: 'system', content: [{ type: 'input_text', text: contextMessage(hits).content }] } });
      this.turns.knowledgeUsed.push(knowledgeUse(this.turns.agentTurns, 'auto', text, hits));
    }
    this.send({ type: 'response.create' });
  }

  private search(text: string): Promise<KnowledgeHit[]> {
    const failed = (error: unknown) => this.log.log('warn', 'knowledge retrieval failed; the turn is answered without it', describeError(error));
    return searchWithin(this.turns.knowledge!, text, AUTO_CHUNKS, RETRIEVAL_TIMEOUT_MS, failed);
  }
}
