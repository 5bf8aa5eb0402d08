import type { KnowledgeBaseMode, KnowledgeHit, KnowledgeUse } from '../../../lib/domain/knowledge/schema.js';
import type { LlmMessage, LlmToolSpec } from '../../../lib/vendors/llm/port.js';

/**
 * Knowledge bases in a conversation (docs/knowledge.md, "In a conversation"), the same for calls, meetings,
 * chats and the widget. `auto`: before the model answers a caller's turn, the turn's words are searched and
 * the best chunks go to the model as a system message with their sources. `tool`: the model is offered
 * `search_knowledge` and calls it when it decides to. Either way each retrieval is kept for the history
 * record (which chunks, from which document, page and section, with their scores).
 */

/** What a conversation may do with its agent's knowledge bases: search them (the workspace is fixed by the session). */
export interface KnowledgeAccess {
  readonly mode: KnowledgeBaseMode;
  search(query: string, k: number): Promise<KnowledgeHit[]>;
}

export const SEARCH_KNOWLEDGE_TOOL = 'search_knowledge';

/** Chunks given per turn in `auto`: ~800 tokens, enough for an answer without crowding the prompt of a voice turn. */
export const AUTO_CHUNKS = 4;
/** Chunks the tool returns. */
export const TOOL_CHUNKS = 5;
/**
 * How long a turn waits for retrieval before answering without it: the embedding request is the one network
 * hop; past this the caller would hear the delay, and an answer without context beats silence.
 */
export const RETRIEVAL_TIMEOUT_MS = 1_500;

export const SEARCH_KNOWLEDGE_SPEC: LlmToolSpec = {
  name: SEARCH_KNOWLEDGE_TOOL,
  description:
    "Search the business's knowledge base (its documents, FAQ, price lists, policies) for facts to answer the caller. " +
    'Use it before answering a question about the business that your instructions do not answer.',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string', description: 'What to look up, in a few words (names, numbers, the topic).' } },
    required: ['query'],
    additionalProperties: false,
  },
};

const source = (h: KnowledgeHit): string =>
  [h.documentName, h.section, h.page !== undefined ? `page ${h.page}` : undefined].filter(Boolean).join(', ');

/** The system message of an `auto` turn: the excerpts, numbered, each with its source. */
export function contextMessage(hits: readonly KnowledgeHit[]): LlmMessage {
  const body = hits.map((h, i) => `[${i + 1}] (${source(h)})\n${h.text}`).join('\n\n');
  return {
    role: 'system',
    content:
      'Excerpts from the knowledge base that may answer the caller. Answer from them when they do; do not invent ' +
      "facts they do not state, and say so when they do not cover the question.\n\n" +
      body,
  };
}

/** The tool's answer to the model: the excerpts as JSON, with their sources. */
export const toolResult = (hits: readonly KnowledgeHit[]): string =>
  JSON.stringify({ results: hits.map((h) => ({ source: source(h), text: h.text, score: h.score })) });

/** What the history record keeps of a retrieval. */
export const knowledgeUse = (turn: number, mode: KnowledgeBaseMode, query: string, hits: readonly KnowledgeHit[]): KnowledgeUse => ({
  turn,
  mode,
  query: query.slice(0, 500),
  chunks: hits.map((h) => ({
    chunkId: h.chunkId,
    documentId: h.documentId,
    documentName: h.documentName,
    ...(h.section ? { section: h.section } : {}),
    ...(h.page !== undefined ? { page: h.page } : {}),
    score: h.score,
  })),
});

/** Messages with the context inserted before the caller's last turn (it stays last, as the models expect). */
export function withContext(messages: readonly LlmMessage[], context: LlmMessage): LlmMessage[] {
  let at = messages.length;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    if (messages[i]!.role === 'user') {
      at = i;
      break;
    }
  }
  return [...messages.slice(0, at), context, ...messages.slice(at)];
}

/** Resolves with the search, or with nothing once `ms` passed or it failed (the turn goes on without). */
export async function searchWithin(access: KnowledgeAccess, query: string, k: number, ms: number, onError: (error: unknown) => void): Promise<KnowledgeHit[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      access.search(query, k),
      new Promise<KnowledgeHit[]>((resolve) => {
        timer = setTimeout(() => {
          onError(new Error(`knowledge retrieval took over ${ms} ms`));
          resolve([]);
        }, ms);
      }),
    ]);
  } catch (error) {
    onError(error);
    return [];
  } finally {
    clearTimeout(timer);
  }
}
