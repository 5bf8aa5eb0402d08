import { STREAM_SWEEP_EVERY_MS } from '../../domain/call.js';

/**
 * What an EventBridge rate rule does, for `npm start`: runs a scheduled handler module every `everyMs`.
 * Runs never overlap (a tick while one is running is skipped, as a slow sweep simply makes the next one
 * find less), and the timer does not keep the process alive.
 */
export interface LocalSchedule {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startSchedule(run: () => Promise<unknown>, everyMs: number, onError: (error: unknown) => void = () => undefined): LocalSchedule {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = run()
      .then(() => undefined, onError)
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  timer.unref?.();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * The sweep of abandoned streams in `npm start`: runs functions/schedule/abandoned-streams.ts, the module
 * the CDK stack deploys behind its EventBridge rule, on the same period.
 */
export async function startStreamSweepSchedule(onError?: (error: unknown) => void, everyMs: number = STREAM_SWEEP_EVERY_MS): Promise<LocalSchedule> {
  const { handler } = await import('../../../functions/schedule/abandoned-streams.js');
  return startSchedule(() => handler(), everyMs, onError);
}

/**
 * The reconciliation of lost status callbacks in `npm start`: runs functions/schedule/lost-callbacks.ts, the
 * module the CDK stack deploys behind its own rule, on the sweep's period.
 */
export async function startLostCallbackSchedule(onError?: (error: unknown) => void, everyMs: number = STREAM_SWEEP_EVERY_MS): Promise<LocalSchedule> {
  const { handler } = await import('../../../functions/schedule/lost-callbacks.js');
  return startSchedule(() => handler(), everyMs, onError);
}

/**
 * The campaign scheduler in `npm start`: one tick of functions/schedule/campaigns.ts (the module the CDK
 * stack deploys behind its schedule) every CAMPAIGN_TICK_MS. State is in the table, so a restart picks up
 * where the last process stopped.
 */
export async function startCampaignSchedule(everyMs: number, onError?: (error: unknown) => void): Promise<LocalSchedule> {
  const { tick } = await import('../../../functions/schedule/campaigns.js');
  return startSchedule(() => tick(), everyMs, onError);
}
