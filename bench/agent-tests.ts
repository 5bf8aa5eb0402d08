/**
 * `npm run bench -- agent-tests`: the wall time of agent-test scenarios (docs/agent-tests.md) on the local
 * platform, chat and voice channels.
 *
 * A scenario is LINES caller lines PAUSE_MS apart (a caller who reads and types; the model stand-in
 * answers at its default pace), so most of its wall time is the script's own pacing.
 * 1. Baseline: the same script played straight on the chat socket (a chat started through the service,
 *    no run, no queue, no grading): what the conversation itself takes.
 * 2. One scenario as a run: POST /api/agent-tests/runs until the run is finished (queue, claim, chat,
 *    record, grading, webhook), as a ratio to the baseline.
 * 3. PARALLEL scenarios in one run side by side (AGENT_TEST_PARALLELISM = PARALLEL): the run's wall time
 *    as a ratio to the one-scenario run (1.0 would be perfect overlap on this machine's cores).
 * Voice (issue 42's target: a one-minute voice scenario in at most 70 s, ten side by side on 2 cores):
 * 4. One voice scenario of VOICE_LINES lines (noise and backchannels on) as a run: its wall time against
 *    its call's own length (the history record's `callDuration`, the conversation in real time).
 * 5. PARALLEL such scenarios in one run: the run's wall time against the one voice run, and how many passed.
 * BENCH_AGENT_TEST_VOICE=0 skips 4-5; BENCH_AGENT_TEST_VOICE_ONLY=1 runs only them.
 * Ends with one JSON line. Benchmarks report; they never fail the run.
 */
import { cpus, loadavg } from 'node:os';
import { getDeps } from '../lib/deps.js';
import { playChatScript } from '../lib/services/agent-test-chat.js';
import { startChat } from '../lib/services/chats.js';
import { getAgent } from '../lib/store/agents.js';
import { createWorkspace } from '../lib/store/workspaces.js';
import { withBenchPlatform } from './_platform.js';

const LINES = Number(process.env.BENCH_AGENT_TEST_LINES ?? 6);
const PAUSE_MS = Number(process.env.BENCH_AGENT_TEST_PAUSE_MS ?? 2_000);
const PARALLEL = Number(process.env.BENCH_AGENT_TEST_PARALLEL ?? 10);
const VOICE_LINES = Number(process.env.BENCH_AGENT_TEST_VOICE_LINES ?? 5);
const VOICE = process.env.BENCH_AGENT_TEST_VOICE !== '0';
const VOICE_ONLY = process.env.BENCH_AGENT_TEST_VOICE_ONLY === '1';
const VOICE_PAUSE_MS = Number(process.env.BENCH_AGENT_TEST_VOICE_PAUSE_MS ?? 2_500);
const round2 = (x: number) => Math.round(x * 100) / 100;

export async function run(): Promise<void> {
  process.env.AGENT_TEST_PARALLELISM = String(PARALLEL);
  const load = loadavg()[0]!;
  await withBenchPlatform({ dataDirPrefix: 'vap-bench-agent-tests-', table: 'bench-agent-tests', bucket: 'voice-agents-recordings' }, async (platform) => {
    const deps = await getDeps();
    const ws = await createWorkspace(deps.db, { name: 'bench', credits: 1_000_000 });
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${platform.baseUrl}${path}`, { method, headers: { 'x-api-key': ws.apiKey, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.json()) as any;
    };
    const agent = await api('POST', '/api/agents', { name: 'Bench', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram', system_prompt: 'You answer briefly.', first_message: 'Hello!' });
    const lines = Array.from({ length: LINES }, (_, i) => ({ text: `Question number ${i + 1}, please`, delayMs: i === 0 ? 0 : PAUSE_MS }));
    const scenario = (suite: string, n: number) => ({ name: `Scenario ${n}`, suite, persona: { type: 'script', lines }, maxTurns: LINES, checks: [{ type: 'says', phrase: 'question number' }, { type: 'first_reply_within', ms: 10_000 }] });
    const finished = async (runId: string) => {
      for (;;) {
        const r = await api('GET', `/api/agent-tests/runs/${runId}`);
        if (!['queued', 'running'].includes(r.status)) return r;
        await new Promise((res) => setTimeout(res, 100));
      }
    };

    const chatPart = async () => {
      // 1. The conversation alone.
      const chat = await startChat(deps, { workspaceId: ws.workspaceId, agent: await getAgent(deps.db, ws.workspaceId, agent._id), contactName: 'bench' });
      const t0 = performance.now();
      await playChatScript(chat.chatUrl, chat.credential, lines, 0);
      const baselineMs = performance.now() - t0;

      // 2. One scenario as a run.
      await api('POST', '/api/agent-tests', scenario('one', 1));
      const t1 = performance.now();
      const one = await finished((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, suite: 'one' }))._id);
      const oneMs = performance.now() - t1;

      // 3. PARALLEL side by side.
      for (let i = 0; i < PARALLEL; i += 1) await api('POST', '/api/agent-tests', scenario('many', i + 1));
      const t2 = performance.now();
      const many = await finished((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, suite: 'many' }))._id);
      const manyMs = performance.now() - t2;
      const walls = (many.scenarios as { wallMs: number }[]).map((s) => s.wallMs).sort((a, b) => a - b);

      const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      process.stdout.write(`Scenario: ${LINES} lines, ${PAUSE_MS} ms apart, chat channel; ${cpus().length} cores, load ${load.toFixed(2)} before\n\n`);
      process.stdout.write('| what | wall time | ratio |\n|---|---|---|\n');
      process.stdout.write(`| the chat alone (baseline) | ${s(baselineMs)} | 1.00 |\n`);
      process.stdout.write(`| one scenario as a run (${one.status}) | ${s(oneMs)} | ${(oneMs / baselineMs).toFixed(2)} x baseline |\n`);
      process.stdout.write(`| ${PARALLEL} scenarios side by side (${many.passed}/${PARALLEL} passed) | ${s(manyMs)} | ${(manyMs / oneMs).toFixed(2)} x one run |\n`);
      process.stdout.write(`\nPer scenario in the parallel run: median ${s(walls[Math.floor(walls.length / 2)] ?? 0)}, max ${s(walls.at(-1) ?? 0)}\n`);
      return { channel: 'chat', lines: LINES, pauseMs: PAUSE_MS, parallel: PARALLEL, baselineMs: Math.round(baselineMs), oneRunMs: Math.round(oneMs), parallelRunMs: Math.round(manyMs), runOverBaseline: round2(oneMs / baselineMs), parallelOverOne: round2(manyMs / oneMs), parallelScenarioMaxMs: walls.at(-1) ?? null };
    };

    const voicePart = async () => {
      // About a minute: each turn (the line, the agent's echo of it, VOICE_PAUSE_MS) takes ~11 s.
      const voiceLines = Array.from({ length: VOICE_LINES }, (_, i) => ({ text: `This is question number ${i + 1} about my order`, delayMs: i === 0 ? 0 : VOICE_PAUSE_MS }));
      const voiceScenario = (suite: string, n: number) => ({
        name: `Voice ${n}`,
        suite,
        channel: 'voice',
        conditions: { noiseDbfs: -60, backchannels: true },
        persona: { type: 'script', lines: voiceLines },
        maxTurns: VOICE_LINES,
        checks: [{ type: 'says', phrase: 'question number' }, { type: 'end_reason', reason: 'customer_hangup' }],
      });
      await api('POST', '/api/agent-tests', voiceScenario('voice-one', 1));
      const t3 = performance.now();
      const one = await finished((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, suite: 'voice-one' }))._id);
      const oneMs = performance.now() - t3;
      const callMs = ((await api('GET', `/api/history/${one.scenarios[0]?.callId}`)).callDuration ?? NaN) * 1000;
      for (let i = 0; i < PARALLEL; i += 1) await api('POST', '/api/agent-tests', voiceScenario('voice-many', i + 1));
      const t4 = performance.now();
      const many = await finished((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, suite: 'voice-many' }))._id);
      const manyMs = performance.now() - t4;
      const statuses = (many.scenarios as { status: string }[]).map((x) => x.status);
      const count = (st: string) => statuses.filter((x) => x === st).length;
      const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      process.stdout.write(`\nVoice scenario: ${VOICE_LINES} lines, ${VOICE_PAUSE_MS} ms after each reply, noise -60 dBFS and backchannels; load ${loadavg()[0]!.toFixed(2)} after\n\n`);
      process.stdout.write('| what | wall time | ratio |\n|---|---|---|\n');
      process.stdout.write(`| the call's own length (baseline) | ${s(callMs)} | 1.00 |\n`);
      process.stdout.write(`| one voice scenario as a run (${one.status}) | ${s(oneMs)} | ${(oneMs / callMs).toFixed(2)} x the call |\n`);
      process.stdout.write(`| ${PARALLEL} side by side (${count('passed')} passed, ${count('failed')} failed, ${count('error')} error) | ${s(manyMs)} | ${(manyMs / oneMs).toFixed(2)} x one run |\n`);
      return { voiceLines: VOICE_LINES, voiceCallMs: Math.round(callMs), voiceScenarioWallMs: Math.round(oneMs), voiceScenarioToCall: round2(oneMs / callMs), voiceTenWallMs: Math.round(manyMs), voiceTenToOne: round2(manyMs / oneMs), voiceTenPassed: count('passed'), voiceTenFailed: count('failed'), voiceTenError: count('error') };
    };

    const chatFigures = VOICE_ONLY ? {} : await chatPart();
    const voiceFigures = VOICE || VOICE_ONLY ? await voicePart() : {};
    process.stdout.write(`${JSON.stringify({ suite: 'agent-tests', ...chatFigures, ...voiceFigures })}\n`);
  });
}
