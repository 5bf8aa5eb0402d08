import type { Deps } from '../deps.js';
import { analysisPrompt, analysisResponseSchema, readAnalysis, type AgentAnalysis, type CallAnalysis } from '../domain/analysis.js';
import { describeError, log } from '../observability/log.js';
import { setHistoryAnalysis } from '../store/history.js';
import type { LlmProvider } from '../vendors/llm/port.js';
import { announce } from './webhook-events.js';

/**
 * Post-call analysis with the agent's own LLM (docs/webhooks.md): one structured-output request over the
 * transcript, its answer validated against the schema, the result stored on the history record and sent as
 * `call.analyzed`. The call's record and `call.ended` do not wait for it.
 */

/** A busy model can take a while over a long transcript; the analysis must still end. */
export const ANALYSIS_TIMEOUT_MS = 30_000;
/** Room for a verdict and a few dozen extracted fields. */
const ANALYSIS_MAX_TOKENS = 1_000;

/** Asks the model; any failure (vendor error, timeout, invalid answer) is a `failed` analysis with its reason. */
export async function analyzeTranscript(
  llm: LlmProvider,
  model: string,
  analysis: AgentAnalysis,
  transcript: string,
  nowMs: () => number = Date.now,
): Promise<CallAnalysis> {
  const at = () => new Date(nowMs()).toISOString();
  if (!transcript.trim()) return { status: 'skipped', error: 'the call had no conversation to analyze', analyzedAt: at() };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ANALYSIS_TIMEOUT_MS);
  let text = '';
  let finished = false;
  try {
    for await (const event of llm.stream(
      {
        model,
        messages: [
          { role: 'system', content: analysisPrompt(analysis) },
          { role: 'user', content: transcript },
        ],
        responseFormat: { name: 'call_analysis', schema: analysisResponseSchema(analysis) },
        maxTokens: ANALYSIS_MAX_TOKENS,
        temperature: 0,
      },
      controller.signal,
    )) {
      if (event.type === 'text') text += event.delta;
      if (event.type === 'done') finished = event.finishReason === 'stop';
    }
  } catch (error) {
    return { status: 'failed', error: `the model request failed: ${(error as Error).message}`, analyzedAt: at() };
  } finally {
    clearTimeout(timer);
  }
  if (controller.signal.aborted) return { status: 'failed', error: `no answer within ${ANALYSIS_TIMEOUT_MS} ms`, analyzedAt: at() };
  if (!finished) return { status: 'failed', error: 'the model stopped before finishing its answer', analyzedAt: at() };
  return readAnalysis(analysis, text, at());
}

/** What a finished call's analysis needs to know. */
export interface AnalyzedCall {
  readonly workspaceId: string;
  readonly callId: string;
  readonly agentId: string;
  readonly transcript: string;
  /** The call's `metadata`, echoed in `call.analyzed`. */
  readonly metadata?: Record<string, unknown>;
}

/** Analyzes a call whose agent asks for it, stores the result on its record and announces `call.analyzed`. */
export async function analyzeAndRecord(
  deps: Pick<Deps, 'db' | 'secrets' | 'webhooks'>,
  llm: LlmProvider,
  agent: { llm_model: string; analysis?: AgentAnalysis | null },
  call: AnalyzedCall,
): Promise<CallAnalysis | undefined> {
  const config = agent.analysis;
  if (!config || (!config.successEvaluation && !config.structuredData)) return undefined;
  const result = await analyzeTranscript(llm, agent.llm_model, config, call.transcript);
  try {
    await setHistoryAnalysis(deps.db, call.workspaceId, call.callId, result);
  } catch (error) {
    // The record may have been deleted meanwhile; the customer still gets the event.
    log('warn', 'analysis not stored', { callId: call.callId, ...describeError(error) });
  }
  await announce(deps, call.workspaceId, 'call.analyzed', { callId: call.callId, agentId: call.agentId, analysis: result, ...(call.metadata ? { metadata: call.metadata } : {}) });
  return result;
}
