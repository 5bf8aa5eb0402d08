import type { ScheduledEvent } from 'aws-lambda';
import { getDeps, withTelephony } from '../../lib/deps.js';
import { setLogLevel } from '../../lib/observability/log.js';
import { assertNoStuckCalls, reconcileLostCallbacks, type ReconcileResult } from '../../lib/services/lost-callbacks.js';
import { createTwilioCalls } from '../../lib/vendors/telephony/twilio-calls.js';

/**
 * The reconciliation of lost status callbacks, on a schedule (an EventBridge rule on AWS; a timer in
 * `npm start`): ends dialed calls whose final status callback Twilio never redelivered. A sibling of the
 * abandoned-stream sweep rather than part of it, so that sweep's bundle stays without the Twilio SDK.
 * A run that found stuck calls (asked about in vain run after run) ends in an error once it has done the
 * rest: the scheduled functions' error alarm. docs/calls.md.
 */
export async function handler(_event?: Partial<ScheduledEvent>): Promise<ReconcileResult> {
  const deps = withTelephony(await getDeps(), createTwilioCalls);
  setLogLevel(deps.config.LOG_LEVEL);
  return assertNoStuckCalls(await reconcileLostCallbacks(deps));
}
