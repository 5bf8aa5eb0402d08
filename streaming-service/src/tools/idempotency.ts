import type { ToolOutcome } from './http.js';

/**
 * The arguments' JSON with object keys sorted at every level, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are
 * the same call. Text that is not JSON is kept as it is (it is refused as invalid arguments anyway).
 */
export function canonicalArguments(argumentsJson: string): string {
  let value: unknown;
  try {
    value = JSON.parse(argumentsJson || '{}');
  } catch {
    return argumentsJson;
  }
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]))
        : v;
  return JSON.stringify(sort(value));
}

/**
 * Tool calls are idempotent within a phone call: the same tool with the same canonical arguments gets the
 * first outcome without a second request. Models re-issue a lookup a turn later ("let me check again"), and
 * a second request would double a booking or an order on a backend that is not idempotent itself. Only
 * successes are kept: a failed or timed-out attempt is forgotten so the model may try again. A call arriving
 * while the same one is in flight shares it. Only http/integration and mcp tools go through here (docs/voice-pipeline.md, docs/tools.md).
 */
export class ToolCallCache {
  private readonly outcomes = new Map<string, Promise<ToolOutcome>>();

  run(name: string, argumentsJson: string, execute: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
    const key = `${name}\u0000${canonicalArguments(argumentsJson)}`;
    const known = this.outcomes.get(key);
    if (known) return known;
    const forget = () => {
      if (this.outcomes.get(key) === running) this.outcomes.delete(key);
    };
    const running: Promise<ToolOutcome> = execute().then(
      (outcome) => {
        if (!outcome.ok) forget();
        return outcome;
      },
      (error: unknown) => {
        forget();
        throw error;
      },
    );
    this.outcomes.set(key, running);
    return running;
  }
}
