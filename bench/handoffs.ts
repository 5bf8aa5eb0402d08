/**
 * `npm run bench -- handoffs`: the switch time of an agent handoff in a phone call (docs/handoffs.md), on the
 * local platform against the vendor stand-ins.
 *
 * CALLS calls, one at a time, each handing off twice (triage → booking → triage) with fixed first lines, so
 * no LLM runs between the tool call and the destination's first audio. The switch time is what the session
 * keeps on each segment: from the handoff tool call to the first audio of the destination's first line in
 * its own voice (the destination read as published, its tools and vendors built, a new TTS socket opened).
 * The baseline, from the same calls: the TTS first byte of the ordinary replies on the warm socket (what any
 * line costs without a switch). Target: switch p50 ≤ 300 ms. Ends with one JSON line; never fails the run.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { getDeps } from '../lib/deps.js';
import { newId } from '../lib/domain/ids.js';
import { signStreamToken, STREAM_TOKEN_KEY_PURPOSE } from '../lib/domain/stream-token.js';
import { SimulatedCaller, tone } from '../lib/local/callers/simulated-caller.js';
import type { ScriptRequest } from '../lib/local/standins/llm.js';
import { openInboundCall } from '../lib/services/inbound-calls.js';
import { createWorkspace } from '../lib/store/workspaces.js';
import type { CallEnded } from '../streaming-service/src/service.js';
import { formatTable, loadSpan, ms } from './_latency.js';
import { withBenchPlatform } from './_platform.js';

const CALLS = Number(process.env.BENCH_HANDOFF_CALLS ?? 10);
const TARGET_MS = 300;
const CALLER = ['I want to book a visit.', 'Which times do you have?', 'Thanks, take me back.', 'Nothing else.'];

const pct = (samples: readonly number[], p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1] ?? Number.NaN;
};

function reply(req: ScriptRequest) {
  const { system, turns } = req.messages;
  if (/^Summari[sz]e/i.test(system)) return { text: 'Summary.' };
  const last = turns.filter((t) => t.role === 'user').at(-1)?.text ?? '';
  if (/^You are Triage/.test(system)) return /book/i.test(last) ? { toolCalls: [{ name: 'handoff_to_booking', arguments: { visit_date: 'Friday' } }] } : { text: 'Anything else?' };
  return /back/i.test(last) ? { toolCalls: [{ name: 'handoff_to_triage', arguments: {} }] } : { text: 'Nine or ten.' };
}

export async function run(): Promise<void> {
  const before = loadavg()[0]!;
  process.env.LOG_LEVEL = 'silent';
  const voice = {
    stt: { transcripts: ({ utterance }: { utterance: number }) => CALLER[utterance] ?? 'Bye.', finalDelayMs: 50 },
    llm: { ttftMs: 150, tokensPerSecond: 80, reply },
    // A hosted voice's first byte is ~100-300 ms; the stand-in's handshake is loopback.
    tts: { firstByteDelayMs: 120, realtimeFactor: 8 },
  };
  await withBenchPlatform({ dataDirPrefix: 'vap-bench-handoffs-', table: 'bench-handoffs', bucket: 'voice-agents-recordings', voice, campaignScheduler: false }, async (platform) => {
    const deps = await getDeps();
    const ws = await createWorkspace(deps.db, { name: 'bench', credits: 1_000_000 });
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${platform.baseUrl}${path}`, { method, headers: { 'x-api-key': ws.apiKey, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as any;
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const base = { llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', stt_provider: 'deepgram' };
    const booking = await api('POST', '/api/agents', { ...base, name: 'Booking', system_prompt: 'You are Booking.', first_message: 'Booking for {{visit_date}}.', tts_voice_id: 'EXAVITQu4vr4xnSDxMaL' });
    const triage = await api('POST', '/api/agents', {
      ...base,
      name: 'Triage',
      system_prompt: 'You are Triage.',
      first_message: 'Triage.',
      handoffs: [{ agent_id: booking._id, description: 'the caller wants to book', variables: [{ name: 'visit_date', type: 'string', description: 'the day' }] }],
    });
    await api('PATCH', `/api/agents/${booking._id}`, { handoffs: [{ agent_id: triage._id, description: 'the caller is done booking' }] });
    // Published, as production agents are: the destination is read as its latest version.
    await api('POST', `/api/agents/${booking._id}/publish`, { note: 'bench' });
    await api('POST', `/api/agents/${triage._id}/publish`, { note: 'bench' });

    const key = deps.secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE);
    const ended: CallEnded[] = [];
    platform.voice.streaming.onCallEnded((e) => ended.push(e));
    const switches: number[] = [];
    const baseline: number[] = [];
    let failed = 0;
    for (let i = 0; i < CALLS; i += 1) {
      const callSid = `CA${randomBytes(16).toString('hex')}`;
      const answer = await openInboundCall(deps, { workspaceId: ws.workspaceId, agentId: triage._id, phoneNumberId: newId('phoneNumber'), ourNumber: '+14155550999', callSid });
      if (answer.kind !== 'connect') throw new Error(`inbound call not answered: ${answer.kind}`);
      const token = signStreamToken({ callSid, workspaceId: ws.workspaceId, callId: answer.call._id }, key);
      const caller = await SimulatedCaller.connect({ url: `${platform.baseUrl.replace(/^http/, 'ws')}/media-stream`, callSid, customParameters: { token } });
      await caller.waitFor((m) => m.event === 'mark');
      await caller.whenIdle();
      for (let turn = 0; turn < CALLER.length; turn += 1) {
        const at = caller.received.length;
        await caller.play(tone(300));
        await caller.waitForNext((m) => m.event === 'mark', 20_000, at);
        await caller.whenIdle();
        await caller.pause(200);
      }
      const count = ended.length;
      caller.hangUp();
      for (let n = 0; n < 3_000 && ended.length === count; n += 1) await new Promise((r) => setTimeout(r, 10));
      const end = ended.at(-1);
      const got = (end?.outcome.segments ?? []).flatMap((s) => (s.handoff?.switchMs === undefined ? [] : [s.handoff.switchMs]));
      if (got.length !== 2) failed += 1;
      switches.push(...got);
      baseline.push(...(end?.record?.turnLatencies ?? []).flatMap((l) => (l.ttsFirstByteMs === null ? [] : [l.ttsFirstByteMs])));
    }
    const ratio = pct(switches, 50) / pct(baseline, 50);
    const row = (name: string, xs: readonly number[]) => [name, String(xs.length), ms(pct(xs, 50)), ms(pct(xs, 95)), ms(Math.max(...xs))];
    const load = loadSpan(before);
    process.stdout.write(
      [
        `${CALLS} phone calls, each handing off twice (triage → booking → triage), fixed first lines, TTS first byte ${voice.tts.firstByteDelayMs} ms`,
        formatTable(['ms', 'n', 'p50', 'p95', 'max'], [row('switch: tool call -> first audio of the new voice', switches), row('baseline: TTS first byte of a reply, warm socket', baseline)]),
        `switch p50 ${ms(pct(switches, 50))} ms (target <= ${TARGET_MS} ms: ${pct(switches, 50) <= TARGET_MS ? 'met' : 'missed'}); ${ratio.toFixed(2)}x the baseline's p50`,
        `calls without both switches measured (should be 0): ${failed}`,
        load.line,
        JSON.stringify({
          suite: 'handoffs',
          calls: CALLS,
          switchP50Ms: Number(pct(switches, 50).toFixed(1)),
          switchP95Ms: Number(pct(switches, 95).toFixed(1)),
          baselineP50Ms: Number(pct(baseline, 50).toFixed(1)),
          ratioToBaseline: Number(ratio.toFixed(3)),
          targetMs: TARGET_MS,
          failed,
          ...load.fields,
        }),
      ].join('\n') + '\n',
    );
  });
}
