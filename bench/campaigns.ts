/**
 * `npm run bench -- campaigns`: how fast the campaign scheduler dials, and what it costs per dial, on the
 * local platform against the Twilio stand-in (every callee busy: the cheapest complete call, so the
 * scheduler and the call path are what is measured, not the voice pipeline).
 *
 * 1. Baseline: DIALS calls through the API's call path itself (`placeOutboundCall`, what the scheduler
 *    calls), CONCURRENCY at once, each slot waiting for its call to end before placing the next: the most
 *    a caller that loops over the API could sustain at that concurrency.
 * 2. Scheduler: a campaign of DIALS contacts at concurrency CONCURRENCY, ticks run back to back (its
 *    capacity) and then at the deployed CAMPAIGN_TICK_MS (what a campaign gets).
 * Both are reported as dials per second and as ratios to the baseline; the scheduler's overhead per dial
 * is the extra wall time per dial over the baseline's. Ends with one JSON line. Benchmarks report; they
 * never fail the run.
 *
 * Every status callback of the Twilio stand-in comes from 127.0.0.1, so all three runs share one per-IP
 * webhook window (RATE_LIMIT_WEBHOOK, 1,200 a minute). Until 28 November that window counted every
 * webhook: the baseline's 900 callbacks (three per busy call) and the next run's first wave filled it, the
 * rest were refused and their calls waited for the lost-callback reconciliation (3 minutes quiet, a run
 * every 2), which is what `ticks back to back` measured from 24 November on (1.3 dials/s). It now counts
 * only refused webhooks (docs/api.md, "Rate limits"), so this runs on the defaults. The campaign is read
 * from the table, not through the API: a GET per tick back to back is over the key's 200 per 10 s.
 */
import { loadavg } from 'node:os';
import { getDeps, withTelephony } from '../lib/deps.js';
import { loadConfig } from '../lib/config.js';
import { placeOutboundCall } from '../lib/services/outbound-calls.js';
import { runCampaignTick } from '../lib/services/campaign-scheduler.js';
import { callsById, findCampaign } from '../lib/store/campaigns.js';
import { createWorkspace } from '../lib/store/workspaces.js';
import { createTwilioTelephony } from '../lib/vendors/telephony/twilio.js';
import { loadSpan } from './_latency.js';
import { withBenchPlatform } from './_platform.js';

/** 300 and 100 as documented; BENCH_CAMPAIGN_DIALS and BENCH_CAMPAIGN_CONCURRENCY give a shorter run. */
const DIALS = Number(process.env.BENCH_CAMPAIGN_DIALS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CAMPAIGN_CONCURRENCY ?? 100);
/** How often the baseline looks for ended calls: a tight loop would measure DynamoDB Local, not the path. */
const POLL_MS = 50;
const number = (base: number, i: number) => `+1415${String(5_550_000 + base + i).padStart(7, '0')}`;

export async function run(): Promise<void> {
  const before = loadavg()[0]!;
  await withBenchPlatform({ dataDirPrefix: 'vap-bench-campaigns-', table: 'bench-campaigns', bucket: 'voice-agents-recordings', campaignScheduler: false }, async (platform) => {
    const deps = withTelephony(await getDeps(), createTwilioTelephony);
    const ws = await createWorkspace(deps.db, { name: 'bench', credits: 1_000_000 });
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${platform.baseUrl}${path}`, { method, headers: { 'x-api-key': ws.apiKey, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.json()) as any;
    };
    const agent = await api('POST', '/api/agents', { name: 'Bench', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram', first_message: 'Hello {{contactName}}.' });
    const available = await api('GET', '/api/phone-numbers/available?country=US&areaCode=415');
    const from = await api('POST', '/api/phone-numbers/buy', { phoneNumber: available.data[0].number });
    for (let i = 0; i < DIALS; i++) {
      platform.callSimulator!.setRule(number(0, i), { kind: 'busy' });
      platform.callSimulator!.setRule(number(5_000, i), { kind: 'busy' });
    }

    // 1. Baseline: the call path, CONCURRENCY slots, each waiting for its call to end. Ended calls are found
    // by one batch read of the calls in flight every POLL_MS, as the scheduler's tick finds them.
    const waiting = new Map<string, () => void>();
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const calls = await callsById(deps.db, ws.workspaceId, [...waiting.keys()]);
        for (const [id, call] of calls) {
          if (call === 'tombstone' || !call.settledAt) continue; // the baseline's calls are all real
          waiting.get(id)?.();
          waiting.delete(id);
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    })();
    let next = 0;
    let baselineErrors = 0;
    let baselineDialed = 0;
    const baseStart = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < DIALS; i = next++) {
          // A store that does not answer in time (a loaded machine) costs that dial: counted, and the rate is of the dials made.
          const placed = await placeOutboundCall(deps, { workspaceId: ws.workspaceId, agent, from, to: number(0, i), nowMs: Date.now() }).catch(() => undefined);
          if (placed?.kind !== 'started') {
            baselineErrors += 1;
            continue;
          }
          await new Promise<void>((resolve) => waiting.set(placed.answer.call_id, resolve));
          baselineDialed += 1;
        }
      }),
    );
    const baseMs = performance.now() - baseStart;
    polling = false;
    await poller;

    // 2. The scheduler: one campaign per run, so both runs dial the same kind of contacts.
    const rows = ['contactName,phoneNumber', ...Array.from({ length: DIALS }, (_, i) => `Bench ${i},${number(5_000, i)}`)];
    const form = new FormData();
    form.append('workspaceId', ws.workspaceId);
    form.append('file', new Blob([rows.join('\n')]), 'bench.csv');
    const uploaded = (await (await fetch(`${platform.baseUrl}/api/contacts/upload`, { method: 'POST', headers: { 'x-api-key': ws.apiKey }, body: form })).json()) as { importId: string };
    const campaignRun = async (tickMs: number) => {
      const campaign = await api('POST', '/api/campaigns', {
        name: `Bench ${tickMs}`,
        agentId: agent._id,
        phoneNumberIds: [from._id],
        contacts: { importId: uploaded.importId },
        concurrency: CONCURRENCY,
        // Every hour of every day: the benchmark measures dialing, not waiting for a window.
        callingWindow: { start: '00:00', end: '23:59', days: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'], timeZone: 'UTC' },
        retry: { busy: { retries: 0, delayMinutes: 1 } },
      });
      await api('POST', `/api/campaigns/${campaign._id}/start`);
      let ticks = 0;
      let tickBusyMs = 0;
      const start = performance.now();
      for (;;) {
        const t0 = performance.now();
        await runCampaignTick(deps, { dialsPerSecond: 1_000 });
        tickBusyMs += performance.now() - t0;
        ticks += 1;
        const c = await findCampaign(deps.db, ws.workspaceId, campaign._id);
        if (c?.status === 'completed') break;
        if (tickMs > 0) await new Promise((r) => setTimeout(r, Math.max(0, tickMs - (performance.now() - t0))));
      }
      return { ms: performance.now() - start, ticks, tickBusyMs };
    };
    const fast = await campaignRun(0);
    const deployedTickMs = loadConfig().CAMPAIGN_TICK_MS;
    const deployed = await campaignRun(deployedTickMs);

    const perSecond = (ms: number) => DIALS / (ms / 1000);
    const baseline = baselineDialed / (baseMs / 1000);
    const capacity = perSecond(fast.ms);
    const asDeployed = perSecond(deployed.ms);
    const overheadMsPerDial = (fast.ms - baseMs) / DIALS;
    process.stdout.write(
      [
        `baseline (the API call path, ${CONCURRENCY} at once, each slot waiting for its call to end): ${baseline.toFixed(1)} dials/s`,
        `scheduler, ticks back to back: ${capacity.toFixed(1)} dials/s = ${(capacity / baseline).toFixed(2)}x baseline (${fast.ticks} ticks)`,
        `scheduler, a tick every ${deployedTickMs} ms: ${asDeployed.toFixed(1)} dials/s = ${(asDeployed / baseline).toFixed(2)}x baseline (${deployed.ticks} ticks)`,
        `overhead per dial: ${overheadMsPerDial.toFixed(2)} ms of wall time over the baseline's ${(baseMs / DIALS).toFixed(2)} ms (${(fast.ms / baseMs).toFixed(2)}x); tick time per dial ${(fast.tickBusyMs / DIALS).toFixed(2)} ms`,
        loadSpan(before).line,
        JSON.stringify({
          suite: 'campaigns',
          dials: DIALS,
          concurrency: CONCURRENCY,
          baselineDialsPerSecond: Number(baseline.toFixed(1)),
          schedulerDialsPerSecond: Number(capacity.toFixed(1)),
          schedulerToBaseline: Number((capacity / baseline).toFixed(2)),
          deployedTickMs,
          deployedDialsPerSecond: Number(asDeployed.toFixed(1)),
          deployedToBaseline: Number((asDeployed / baseline).toFixed(2)),
          overheadMsPerDial: Number(overheadMsPerDial.toFixed(2)),
          wallTimeToBaseline: Number((fast.ms / baseMs).toFixed(2)),
          tickMsPerDial: Number((fast.tickBusyMs / DIALS).toFixed(2)),
          baselineErrors,
          ...loadSpan(before).fields,
        }),
      ].join('\n') + '\n',
    );
  });
}
