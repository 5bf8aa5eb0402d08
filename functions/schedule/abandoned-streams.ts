import type { ScheduledEvent } from 'aws-lambda';
import { getDeps } from '../../lib/deps.js';
import { setLogLevel } from '../../lib/observability/log.js';
import { settleAbandonedStreams, type SweepResult } from '../../lib/services/abandoned-streams.js';

/**
 * The sweep of abandoned streams, on a schedule (an EventBridge rule on AWS; a timer in `npm start`):
 * settles the calls whose stream stopped beating because its container died. docs/calls.md.
 */
export async function handler(_event?: Partial<ScheduledEvent>): Promise<SweepResult> {
  const deps = await getDeps();
  setLogLevel(deps.config.LOG_LEVEL);
  return settleAbandonedStreams(deps);
}
