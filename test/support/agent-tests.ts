import { untilDone } from './progress.js';

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/**
 * An agent-test run once it finished, polled through the API as a CI job would. It fails only when the run
 * stopped moving (its status and its scenarios' statuses unchanged) for `stallMs`: a voice scenario plays in
 * real time, a minute or more on a loaded machine, before its status changes.
 */
export function runFinished(api: Api, runId: string, stallMs = 300_000): Promise<any> {
  return untilDone(
    async () => {
      const res = await api('GET', `/api/agent-tests/runs/${runId}`);
      const run = res.body;
      return { done: ['passed', 'failed', 'error'].includes(run?.status) ? run : undefined, progress: [run?.status, run?.scenarios?.map((s: { status: string }) => s.status)] };
    },
    { what: `agent-test run ${runId}`, stallMs },
  );
}
