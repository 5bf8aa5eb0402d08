import type { ScheduledEvent } from 'aws-lambda';
import { getDeps } from '../../lib/deps.js';
import { setLogLevel } from '../../lib/observability/log.js';
import { runCampaignTick, type TickResult } from '../../lib/services/campaign-scheduler.js';

/**
 * The campaign scheduler on a schedule (docs/campaigns.md, "The scheduler"). EventBridge fires at most once
 * a minute, and a minute is too coarse to refill concurrency slots, so one invocation runs ticks every
 * CAMPAIGN_TICK_MS for {@link RUN_MS}, then ends before the next one starts. Runs that do overlap are safe:
 * every step of a tick is a conditional write.
 */
export const RUN_MS = 55_000;

/** One tick (what `npm start` runs on its timer). */
export async function tick(): Promise<TickResult> {
  const deps = await getDeps();
  setLogLevel(deps.config.LOG_LEVEL);
  return runCampaignTick(deps);
}

export async function handler(_event?: Partial<ScheduledEvent>, context?: { getRemainingTimeInMillis?: () => number }): Promise<{ ticks: number; dialed: number }> {
  const deps = await getDeps();
  const stopAt = Date.now() + Math.min(RUN_MS, (context?.getRemainingTimeInMillis?.() ?? RUN_MS + 5_000) - 5_000);
  let ticks = 0;
  let dialed = 0;
  while (Date.now() < stopAt) {
    const started = Date.now();
    dialed += (await tick()).dialed;
    ticks += 1;
    await new Promise((r) => setTimeout(r, Math.max(0, deps.config.CAMPAIGN_TICK_MS - (Date.now() - started))));
  }
  return { ticks, dialed };
}
