import type { ScenarioResult, TestRun } from '../../domain/agent-test.js';
import { CliFailure } from './cli-errors.js';
import type { ProgressSink } from './progress.js';

/**
 * `agent test` (docs/agent-tests.md): a customer's CI gate. Unlike the admin commands it acts through the
 * public API with the workspace's own API key, as a CI job can: it starts a run of the suite, waits for it,
 * prints a JUnit report on stdout (one test case per check, grouped by scenario) and a readable summary on
 * stderr, and tells the caller whether everything passed.
 */

export interface AgentTestInput {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly suite: string;
  readonly agentId: string;
  readonly version?: number | undefined;
}

export interface AgentTestOptions {
  /** Between looks at the run: a chat scenario takes seconds, so half a second wastes little. */
  readonly pollMs: number;
  /** The longest wait: the run consumer's own limit (AGENT_TEST_QUEUE_SETTINGS, 15 minutes) and a minute more. */
  readonly timeoutMs: number;
}

const DEFAULT_OPTIONS = { pollMs: 500, timeoutMs: 16 * 60_000 } as const satisfies AgentTestOptions;

async function call(input: AgentTestInput, method: string, path: string, body?: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${input.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: { 'x-api-key': input.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new CliFailure(`cannot reach the API at ${input.baseUrl}: ${(error as Error).message}`);
  }
  const parsed = (await res.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
  if (!res.ok) throw new CliFailure(`the API answered ${res.status}${parsed?.error ? ` ${parsed.error.code}: ${parsed.error.message}` : ''}`);
  return parsed;
}

/** Starts the run and waits for it to finish; returns the finished run. */
export async function runAgentTests(input: AgentTestInput, stderr: ProgressSink, options: Partial<AgentTestOptions> = {}): Promise<TestRun> {
  const opts = { ...DEFAULT_OPTIONS, ...options };
  const started = (await call(input, 'POST', '/api/agent-tests/runs', {
    agentId: input.agentId,
    suite: input.suite,
    ...(input.version === undefined ? {} : { version: input.version }),
  })) as TestRun;
  stderr.write(`Running suite ${input.suite} (${started.scenarios.length} scenarios) against ${input.agentId} ${input.version === undefined ? 'draft' : `version ${input.version}`}: run ${started._id}\n`);
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const run = (await call(input, 'GET', `/api/agent-tests/runs/${started._id}`)) as TestRun;
    if (run.status !== 'queued' && run.status !== 'running') return run;
    if (Date.now() > deadline) throw new CliFailure(`run ${started._id} did not finish within ${Math.round(opts.timeoutMs / 60_000)} minutes`);
    await new Promise((r) => setTimeout(r, opts.pollMs));
  }
}

const escapeXml = (s: string) =>
  s
    // XML 1.0 has no way to write most control characters: they are dropped.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3);

function scenarioCases(suite: string, s: ScenarioResult): string[] {
  const classname = escapeXml(`${suite}.${s.name}`);
  if (s.status === 'error' || s.checks.length === 0) {
    return [`    <testcase classname="${classname}" name="plays the scenario" time="${seconds(s.wallMs)}">\n      <error message="${escapeXml(s.error ?? 'the scenario did not run')}"/>\n    </testcase>`];
  }
  // The scenario's time is its wall time; each check is one case of it (the first carries the time).
  return s.checks.map((c, i) => {
    const head = `    <testcase classname="${classname}" name="${escapeXml(c.label)}" time="${i === 0 ? seconds(s.wallMs) : '0.000'}"`;
    if (c.passed) return `${head}/>`;
    const transcript = s.transcript ? `\n      <system-out>${escapeXml(s.transcript)}</system-out>` : '';
    return `${head}>\n      <failure message="${escapeXml(c.evidence)}" type="${escapeXml(c.type)}">${escapeXml(`${c.label}: ${c.evidence}`)}</failure>${transcript}\n    </testcase>`;
  });
}

/** The run as a JUnit XML report (the format CI systems read: GitHub Actions reporters, GitLab, Jenkins). */
export function junitReport(run: TestRun): string {
  const suite = run.suite ?? run.scenarios[0]?.name ?? 'agent-test';
  const checks = run.scenarios.flatMap((s) => (s.status === 'error' || s.checks.length === 0 ? [{ passed: false, error: true }] : s.checks.map((c) => ({ passed: c.passed, error: false }))));
  const failures = checks.filter((c) => !c.passed && !c.error).length;
  const errors = checks.filter((c) => c.error).length;
  const time = seconds(run.scenarios.reduce((sum, s) => sum + (s.wallMs ?? 0), 0));
  const attrs = `tests="${checks.length}" failures="${failures}" errors="${errors}" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agent tests" ${attrs}>`,
    `  <testsuite name="${escapeXml(suite)}" ${attrs} timestamp="${escapeXml(run.startedAt ?? run.createdAt)}">`,
    `    <properties>\n      <property name="runId" value="${escapeXml(run._id)}"/>\n      <property name="agentId" value="${escapeXml(run.agentId)}"/>\n      <property name="agentVersion" value="${run.agentVersion ?? 'draft'}"/>\n      <property name="cost" value="${run.cost}"/>\n    </properties>`,
    ...run.scenarios.flatMap((s) => scenarioCases(suite, s)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** The readable summary: one line per scenario, then each failed check with its evidence. */
export function summary(run: TestRun): string {
  const lines: string[] = [];
  for (const s of run.scenarios) {
    const mark = s.status === 'passed' ? 'PASS' : s.status === 'failed' ? 'FAIL' : 'ERROR';
    const was = s.previous && s.previous !== s.status ? ` (was ${s.previous})` : '';
    lines.push(`${mark}  ${s.name}${was}`);
    if (s.error) lines.push(`      ${s.error}`);
    for (const c of s.checks.filter((k) => !k.passed)) lines.push(`      ✗ ${c.label}: ${c.evidence}`);
  }
  lines.push(`${run.passed} passed, ${run.failed} failed; ${run.cost} credits; run ${run._id}`);
  return `${lines.join('\n')}\n`;
}
