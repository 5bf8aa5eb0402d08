import type { Config } from '../config.js';
import type { CallEndReason } from '../domain/history.js';
import { VENDOR_FAILURE_REASONS } from '../domain/call-end.js';

/**
 * Call outcomes as CloudWatch embedded-metric-format (EMF) lines: one JSON line on stdout per call whose
 * history record is written, from whichever process wrote it (the streaming task, the Twilio status webhook,
 * the dispatch consumer, the sweep of abandoned streams). CloudWatch Logs extracts the metrics from Lambda
 * and awslogs log groups alike, so no PutMetricData call and no IAM. The stack's call-failure alarm divides
 * `CallsFailed` by `CallsEnded` (lib/infra/constructs/monitoring.ts).
 */
export const CALL_METRICS = {
  namespace: 'VoiceAgentPlatform/Calls',
  dimension: 'Stack',
  ended: 'CallsEnded',
  failed: 'CallsFailed',
} as const;

/**
 * The end reasons that are the platform's failure, not the caller's choice: the call could not be placed or
 * broke on our side. Busy, no answer, voicemail and hang-ups are ordinary outcomes of calling people.
 */
export const FAILED_END_REASONS: ReadonlySet<string> = new Set<CallEndReason>(['failed', 'error', ...VENDOR_FAILURE_REASONS]);

/** The EMF document for one ended call. */
export function callOutcomeLine(config: Pick<Config, 'METRICS_STACK'>, endReason: string, timestampMs: number): string {
  return JSON.stringify({
    _aws: {
      Timestamp: timestampMs,
      CloudWatchMetrics: [
        {
          Namespace: CALL_METRICS.namespace,
          Dimensions: [[CALL_METRICS.dimension]],
          Metrics: [
            { Name: CALL_METRICS.ended, Unit: 'Count' },
            { Name: CALL_METRICS.failed, Unit: 'Count' },
          ],
        },
      ],
    },
    [CALL_METRICS.dimension]: config.METRICS_STACK,
    [CALL_METRICS.ended]: 1,
    [CALL_METRICS.failed]: FAILED_END_REASONS.has(endReason) ? 1 : 0,
  });
}

/** Prints the call's outcome line when METRICS_MODE is `emf` (the stack sets it); nothing otherwise. */
export function recordCallOutcome(
  config: Pick<Config, 'METRICS_MODE' | 'METRICS_STACK'>,
  endReason: string,
  write: (line: string) => void = (line) => void process.stdout.write(`${line}\n`),
): void {
  if (config.METRICS_MODE !== 'emf') return;
  write(callOutcomeLine(config, endReason, Date.now()));
}
