/**
 * `npm run bench -- webhooks`: what webhook delivery costs, end to end, on the local platform (the same
 * consumer module Lambda runs, one poller on `local-aws-sqs`, a receiver on loopback).
 *
 * 1. Throughput: EVENTS events published by PUBLISHERS concurrent callers to one endpoint; events per second from the first
 *    publish to the last verified receipt, with one worker (one poller, batches of 10 attempted in parallel).
 * 2. Latency from call end: CALLS history records written one after another through the very function the
 *    streaming service calls at a call's end (it announces `call.ended`); the time from that call to the
 *    receiver holding the verified delivery. Target: p50 <= 1 s locally (docs/benchmarks.md).
 *
 * Ends with one JSON line of its figures. Benchmarks report; they never fail the run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { Webhook } from 'standardwebhooks';
import { getDeps } from '../lib/deps.js';
import { newId } from '../lib/domain/ids.js';
import { writeHistoryRecord } from '../lib/services/call-events.js';
import { publishEvent } from '../lib/services/webhook-events.js';
import { createWebhookEndpoint } from '../lib/services/webhooks.js';
import { createWorkspace } from '../lib/store/workspaces.js';
import { loadSpan } from './_latency.js';
import { withBenchPlatform } from './_platform.js';

const EVENTS = 500;
const CALLS = 40;
const PUBLISHERS = 20;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function run(): Promise<void> {
  const arrivals = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  let secret = '';
  let verifyFailures = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const event = new Webhook(secret).verify(body, req.headers as Record<string, string>) as { id: string; data: { callId?: string; n?: number } };
        const keyOf = event.data.callId ?? String(event.data.n);
        if (!arrivals.has(keyOf)) arrivals.set(keyOf, at);
        waiters.get(keyOf)?.();
      } catch {
        verifyFailures += 1;
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as AddressInfo).port;
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${port}`;
  const before = loadavg()[0]!;

  try {
    await withBenchPlatform({ dataDirPrefix: 'vap-bench-webhooks-', table: 'bench-webhooks', bucket: 'voice-agents-recordings' }, async () => {
      const deps = await getDeps();
      const { workspaceId } = await createWorkspace(deps.db, { name: 'bench', credits: 0 });
      const endpoint = await createWebhookEndpoint(deps, workspaceId, { url: `http://127.0.0.1:${port}/hooks`, description: 'bench' }, { allowedHosts: [`127.0.0.1:${port}`] });
      secret = endpoint.secret;
      const arrived = (k: string) => new Promise<void>((resolve) => (arrivals.has(k) ? resolve() : waiters.set(k, resolve)));

      // 1. Throughput.
      const t0 = performance.now();
      const done = Promise.all(Array.from({ length: EVENTS }, (_, n) => arrived(String(n))));
      // Published by PUBLISHERS concurrent callers (as many API handlers and calls would), so the one worker,
      // not a single publisher's round trips, is what limits the rate.
      let next = 0;
      await Promise.all(
        Array.from({ length: PUBLISHERS }, async () => {
          for (let n = next++; n < EVENTS; n = next++) await publishEvent(deps, workspaceId, 'contacts.import.completed', { n });
        }),
      );
      const published = performance.now();
      await done;
      const elapsedMs = performance.now() - t0;
      const eventsPerSecond = EVENTS / (elapsedMs / 1000);
      const publishPerSecond = EVENTS / ((published - t0) / 1000);

      // 2. Latency from a call's end (its record written) to the verified delivery, one call at a time.
      const latencies: number[] = [];
      for (let i = 0; i < CALLS; i += 1) {
        const callId = newId('call');
        const start = performance.now();
        await writeHistoryRecord(deps, {
          _id: callId, agentType: 'voice', fullName: 'Bench', mobileNumber: '+14155550100', callDuration: 30, callEndReason: 'customer_hangup',
          callTranscript: 'agent: hi', callSummary: 'A bench call.', callCost: 0.5, workspace_id: workspaceId, createdAt: new Date().toISOString(),
        });
        await arrived(callId);
        latencies.push(arrivals.get(callId)! - start);
      }
      latencies.sort((a, b) => a - b);
      const p50 = percentile(latencies, 50);
      const p95 = percentile(latencies, 95);

      process.stdout.write(
        [
          `throughput: ${EVENTS} events to one endpoint, one worker: ${eventsPerSecond.toFixed(0)} events/s end to end (publishing alone ${publishPerSecond.toFixed(0)}/s)`,
          `call end -> delivery (${CALLS} calls, sequential): p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms (target p50 <= 1000 ms: ${p50 <= 1000 ? 'met' : 'missed'})`,
          `signature failures at the receiver: ${verifyFailures}`,
          loadSpan(before).line,
          JSON.stringify({
            suite: 'webhooks',
            events: EVENTS,
            eventsPerSecond: Math.round(eventsPerSecond),
            publishPerSecond: Math.round(publishPerSecond),
            calls: CALLS,
            callEndToDeliveryP50Ms: Math.round(p50),
            callEndToDeliveryP95Ms: Math.round(p95),
            verifyFailures,
            ...loadSpan(before).fields,
          }),
        ].join('\n') + '\n',
      );
    });
  } finally {
    delete process.env.TOOL_ALLOWED_HOSTS;
    await new Promise<void>((r) => receiver.close(() => r()));
  }
}
