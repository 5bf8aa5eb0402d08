/**
 * Invariant: each ended call prints exactly one EMF document in METRICS_MODE=emf (nothing otherwise), in the
 * namespace, metric names and `Stack` dimension the call-failure alarm reads; only the platform's own
 * failures count as failed.
 */
import { describe, expect, it } from 'vitest';
import { CALL_METRICS, FAILED_END_REASONS, callOutcomeLine, recordCallOutcome } from '../../lib/services/call-metrics.js';
import { CALL_END_REASONS } from '../../lib/domain/history.js';
import { VENDOR_FAILURE_REASONS } from '../../lib/domain/call-end.js';

describe('call outcome metrics', () => {
  it('declare CallsEnded and CallsFailed under the Stack dimension, as CloudWatch EMF requires', () => {
    const doc = JSON.parse(callOutcomeLine({ METRICS_STACK: 'Prod' }, 'error', 1_700_000_000_000)) as Record<string, any>;
    const directive = doc._aws.CloudWatchMetrics[0];
    expect(doc._aws.Timestamp).toBe(1_700_000_000_000);
    expect(directive.Namespace).toBe(CALL_METRICS.namespace);
    expect(directive.Dimensions).toEqual([[CALL_METRICS.dimension]]);
    expect(directive.Metrics.map((m: { Name: string }) => m.Name)).toEqual([CALL_METRICS.ended, CALL_METRICS.failed]);
    expect(doc).toMatchObject({ Stack: 'Prod', CallsEnded: 1, CallsFailed: 1 });
  });

  it('count only failed, error and the vendor failures as failures; busy, no answer, voicemail and hang-ups are outcomes', () => {
    for (const reason of CALL_END_REASONS) {
      const doc = JSON.parse(callOutcomeLine({ METRICS_STACK: 's' }, reason, 0)) as { CallsFailed: number };
      expect(doc.CallsFailed, reason).toBe(FAILED_END_REASONS.has(reason) ? 1 : 0);
    }
    expect([...FAILED_END_REASONS].sort()).toEqual(['error', 'failed', ...VENDOR_FAILURE_REASONS].sort());
  });

  it('print one line in emf mode and nothing when metrics are off', () => {
    const lines: string[] = [];
    recordCallOutcome({ METRICS_MODE: 'off', METRICS_STACK: 's' }, 'failed', (l) => lines.push(l));
    expect(lines).toEqual([]);
    recordCallOutcome({ METRICS_MODE: 'emf', METRICS_STACK: 's' }, 'customer_hangup', (l) => lines.push(l));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ CallsEnded: 1, CallsFailed: 0 });
  });
});
