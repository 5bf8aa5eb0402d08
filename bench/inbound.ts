/**
 * `npm run bench -- inbound`: the wait a number's inbound webhook adds to answering an inbound call
 * (docs/telephony.md, "Inbound webhook"), on the local platform against the Twilio stand-in.
 *
 * Two numbers of one workspace answer with the same agent. The baseline number has no inbound webhook; the
 * other asks a loopback server that answers after DELAY_MS (an agent, variables and metadata: the answer
 * whose use costs the most). The stand-in rings each CALLS times, alternating (so drift on a busy machine
 * lands on both alike), one call at a time, and times its signed voice webhook from POST to TwiML. The server
 * times its own answer, from the request's arrival to its last byte written.
 *
 * Added wait of one call = its time − the server's own answer time − the baseline's p50: what the platform
 * spent beyond the customer's server (connecting, signing, reading and checking the answer, the agent's
 * read, the delivery log's write). Target: p50 and p99 ≤ 20 ms. The p99 carries the baseline's own jitter,
 * so the tail is also given against the baseline's p99. Ends with one JSON line. Benchmarks report; they
 * never fail the run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { getDeps } from '../lib/deps.js';
import { createWorkspace } from '../lib/store/workspaces.js';
import { formatTable, loadSpan, ms } from './_latency.js';
import { withBenchPlatform } from './_platform.js';

/** 200 calls a side and 100 ms as documented; BENCH_INBOUND_CALLS and BENCH_INBOUND_DELAY_MS change them. */
const CALLS = Number(process.env.BENCH_INBOUND_CALLS ?? 200);
const DELAY_MS = Number(process.env.BENCH_INBOUND_DELAY_MS ?? 100);
const WARMUP = 10;
const TARGET_MS = 20;

/** Nearest-rank percentile. */
const pct = (samples: readonly number[], p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]!;
};

export async function run(): Promise<void> {
  const before = loadavg()[0]!;
  let reply = '{}';
  let lastServerMs = 0;
  const customer = createServer((req, res) => {
    const arrived = performance.now();
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(reply, () => (lastServerMs = performance.now() - arrived));
      }, DELAY_MS),
    );
  });
  await new Promise<void>((r) => customer.listen(0, '127.0.0.1', r));
  const port = (customer.address() as AddressInfo).port;
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${port}`;
  // A log line per call would be written on both sides alike; it is not what is measured.
  process.env.LOG_LEVEL = 'silent';

  try {
    await withBenchPlatform({ dataDirPrefix: 'vap-bench-inbound-', table: 'bench-inbound', bucket: 'voice-agents-recordings', campaignScheduler: false }, async (platform) => {
      const deps = await getDeps();
      // Each answered call reserves one call's credits and stays live (no media follows the TwiML).
      const ws = await createWorkspace(deps.db, { name: 'bench', credits: 1_000_000 });
      const api = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${platform.baseUrl}${path}`, { method, headers: { 'x-api-key': ws.apiKey, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
        const json = (await res.json()) as any;
        if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
        return json;
      };
      const agent = (name: string) => api('POST', '/api/agents', { name, llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram', first_message: 'Hello {{first_name|there}}.' });
      const main = await agent('Front desk');
      const billing = await agent('Billing');
      const available = await api('GET', '/api/phone-numbers/available?country=US&areaCode=415&limit=2');
      const [plain, hooked] = await Promise.all((available.data as { number: string }[]).slice(0, 2).map((n) => api('POST', '/api/phone-numbers/buy', { phoneNumber: n.number })));
      await api('PATCH', `/api/phone-numbers/${plain._id}`, { agentId: main._id });
      await api('PATCH', `/api/phone-numbers/${hooked._id}`, { agentId: main._id, inbound_webhook_url: `http://127.0.0.1:${port}/inbound` });
      reply = JSON.stringify({ agentId: billing._id, variables: { first_name: 'Ada', plan: 'gold' }, metadata: { crm_id: 'lead-42' } });

      let refused = 0;
      const ring = async (number: string): Promise<number> => {
        const t0 = performance.now();
        const answer = await platform.twilio!.ringInbound(number, '+14155550199');
        const took = performance.now() - t0;
        if (!answer.body.includes('<Connect><Stream')) refused += 1;
        return took;
      };
      for (let i = 0; i < WARMUP; i += 1) {
        await ring(plain.number);
        await ring(hooked.number);
      }
      const baseline: number[] = [];
      const withHook: number[] = [];
      const server: number[] = [];
      const beyondServer: number[] = [];
      for (let i = 0; i < CALLS; i += 1) {
        // Alternating which goes first, so neither side always follows the other's writes.
        const order = i % 2 === 0 ? (['plain', 'hooked'] as const) : (['hooked', 'plain'] as const);
        for (const side of order) {
          if (side === 'plain') baseline.push(await ring(plain.number));
          else {
            const took = await ring(hooked.number);
            withHook.push(took);
            server.push(lastServerMs);
            beyondServer.push(took - lastServerMs);
          }
        }
      }
      const base50 = pct(baseline, 50);
      const added = beyondServer.map((x) => x - base50);
      const addedP50 = pct(added, 50);
      const addedP99 = pct(added, 99);
      // The tail against the baseline's own tail: on a loaded machine both sides' p99 are the load's.
      const tailOverBaselineP99 = pct(beyondServer, 99) - pct(baseline, 99);
      const row = (name: string, xs: readonly number[]) => [name, ms(pct(xs, 50)), ms(pct(xs, 99)), ms(Math.max(...xs))];
      process.stdout.write(
        [
          `${CALLS} inbound calls a side, one at a time; the customer's server answers after ${DELAY_MS} ms`,
          formatTable(['voice webhook -> TwiML (ms)', 'p50', 'p99', 'max'], [
            row('no inbound webhook (baseline)', baseline),
            row('with the inbound webhook', withHook),
            row("the customer server's own answer", server),
            row('added wait (call - server - baseline p50)', added),
          ]),
          `added wait: p50 ${ms(addedP50)} ms, p99 ${ms(addedP99)} ms (target <= ${TARGET_MS} ms: ${addedP50 <= TARGET_MS && addedP99 <= TARGET_MS ? 'met' : 'missed'}); with the webhook / (baseline + delay), p50: ${(pct(withHook, 50) / (base50 + DELAY_MS)).toFixed(2)}x`,
          `p99 of (call - server) over the baseline's p99: ${ms(tailOverBaselineP99)} ms`,
          `calls not connected (should be 0): ${refused}`,
          loadSpan(before).line,
          JSON.stringify({
            suite: 'inbound',
            calls: CALLS,
            delayMs: DELAY_MS,
            baselineP50Ms: Number(base50.toFixed(1)),
            withHookP50Ms: Number(pct(withHook, 50).toFixed(1)),
            serverP50Ms: Number(pct(server, 50).toFixed(1)),
            addedP50Ms: Number(addedP50.toFixed(1)),
            addedP99Ms: Number(addedP99.toFixed(1)),
            baselineP99Ms: Number(pct(baseline, 99).toFixed(1)),
            tailOverBaselineP99Ms: Number(tailOverBaselineP99.toFixed(1)),
            ratioToBaselinePlusDelay: Number((pct(withHook, 50) / (base50 + DELAY_MS)).toFixed(3)),
            refused,
            ...loadSpan(before).fields,
          }),
        ].join('\n') + '\n',
      );
    });
  } finally {
    delete process.env.TOOL_ALLOWED_HOSTS;
    customer.closeAllConnections();
    await new Promise<void>((r) => customer.close(() => r()));
  }
}
