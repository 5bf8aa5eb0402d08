import type { Config } from '../../lib/config.js';
import { ACTIVE_SESSIONS_METRIC, SERVICE_DIMENSION } from '../../lib/observability/session-metrics.js';

/**
 * The streaming service's own metrics, as CloudWatch embedded metric format (EMF) log lines: one JSON line on
 * stdout that the task's awslogs driver ships to CloudWatch Logs, which extracts the metric from it. No SDK
 * client, no PutMetricData call on the hot path, no extra IAM: writing logs is all the task needs.
 *
 * The metric is what the Fargate service scales on (lib/infra/constructs/streaming-service.ts): the number of
 * calls in progress on this task, averaged over all tasks by target tracking.
 */

/**
 * One line a minute: CloudWatch's standard resolution is a minute, and target tracking evaluates minute
 * periods, so more often only costs log volume.
 */
export const METRICS_INTERVAL_MS = 60_000;

/** Options of {@link startSessionMetrics}. */
export interface SessionMetricsOptions {
  readonly config: Pick<Config, 'METRICS_MODE' | 'METRICS_NAMESPACE' | 'METRICS_SERVICE'>;
  /** Reads the current number of active calls. */
  readonly activeSessions: () => number;
  /** Where lines go (stdout by default; tests capture them). */
  readonly write?: (line: string) => void;
  readonly intervalMs?: number;
  /** Wall clock for the EMF timestamp (tests pin it). */
  readonly now?: () => number;
}

/** One EMF document carrying the active-session count. */
export function activeSessionsLine(
  config: Pick<Config, 'METRICS_NAMESPACE' | 'METRICS_SERVICE'>,
  activeSessions: number,
  timestampMs: number,
): string {
  return JSON.stringify({
    _aws: {
      Timestamp: timestampMs,
      CloudWatchMetrics: [
        {
          Namespace: config.METRICS_NAMESPACE,
          Dimensions: [[SERVICE_DIMENSION]],
          Metrics: [{ Name: ACTIVE_SESSIONS_METRIC, Unit: 'Count' }],
        },
      ],
    },
    [SERVICE_DIMENSION]: config.METRICS_SERVICE,
    [ACTIVE_SESSIONS_METRIC]: activeSessions,
  });
}

/**
 * Publishes the active-session count every minute when METRICS_MODE is `emf` (the stack sets it on ECS), and
 * does nothing otherwise. Returns a function that stops publishing after one last line, so a draining task
 * reports its falling count until it exits.
 */
export function startSessionMetrics(options: SessionMetricsOptions): () => void {
  if (options.config.METRICS_MODE !== 'emf') return () => undefined;
  const write = options.write ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const now = options.now ?? Date.now;
  const publish = () => write(activeSessionsLine(options.config, options.activeSessions(), now()));
  publish();
  const timer = setInterval(publish, options.intervalMs ?? METRICS_INTERVAL_MS);
  // Metrics never keep the process alive on their own.
  timer.unref();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    publish();
  };
}
