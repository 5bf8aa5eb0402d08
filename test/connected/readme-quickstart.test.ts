/**
 * Invariant: the README's quickstart works as written. Its commands are read from README.md (the ```sh
 * block under the `<!-- quickstart` marker) and run in order by bash, against a fresh `npm start` (a child
 * process on a free port with its own DATA_DIR and instance registry), as a newcomer would paste them; each
 * step's output is checked: a workspace key, an agent, a bought number, a placed call that is followed
 * while it runs and reaches a terminal state, its history record with a transcript, a recording URL that
 * serves audio, a meeting link and a chat. So the README cannot drift from the platform.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_STATES, TERMINAL_CALL_STATES, type CallState } from '../../lib/domain/call.js';
import { freePort } from '../../lib/local/platform/ports.js';

const ROOT = new URL('../..', import.meta.url).pathname;
/** Backstops only: a fresh start (DynamoDB Local's JVM, the dashboard build check) and one real-time call. */
const START_BACKSTOP_MS = 180_000;
const RUN_BACKSTOP_MS = 240_000;

/** The commands of the README's quickstart block, one per entry (continued lines joined, comments dropped). */
export function quickstartCommands(readme: string): string[] {
  const marker = readme.indexOf('<!-- quickstart');
  if (marker === -1) throw new Error('README.md has no <!-- quickstart --> marker');
  const block = /```sh\n([\s\S]*?)\n```/.exec(readme.slice(marker));
  if (!block) throw new Error('no ```sh block after the quickstart marker');
  const commands: string[] = [];
  let pending = '';
  for (const line of block[1]!.split('\n')) {
    if (pending === '' && (line.trim() === '' || line.trimStart().startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    commands.push(pending + line);
    pending = '';
  }
  return commands;
}

interface Started {
  readonly child: ChildProcess;
  readonly output: () => string;
}

function startPlatformProcess(env: NodeJS.ProcessEnv): Promise<Started> {
  // Its own process group, so stopping it reaches tsx and the platform under npm.
  const child = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const backstop = setTimeout(() => reject(new Error(`npm start did not come up:\n${out}`)), START_BACKSTOP_MS);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${out}`)));
    child.stdout!.on('data', () => {
      if (out.includes('Voice agent platform running at')) {
        clearTimeout(backstop);
        resolve({ child, output: () => out });
      }
    });
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

/** Runs the commands in one bash, in order, and answers each one's output and, at the end, the variables they set. */
function runInBash(commands: readonly string[], env: NodeJS.ProcessEnv): Promise<{ outputs: string[]; vars: Record<string, string>; stderr: string }> {
  const names = [...new Set(commands.flatMap((c) => /^([A-Z_]+)=/.exec(c)?.[1] ?? []))];
  const script = [
    'set -euo pipefail',
    ...commands.flatMap((c, i) => [c, `printf '\\n@@step ${i}@@\\n'`]),
    ...names.map((n) => `printf '@@var %s=%s\\n' ${n} "$${n}"`),
  ].join('\n');
  const bash = spawn('bash', ['-c', script], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  bash.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  bash.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const backstop = setTimeout(() => {
      process.kill(-bash.pid!, 'SIGKILL');
      reject(new Error(`the quickstart did not finish:\n${stdout}\n${stderr}`));
    }, RUN_BACKSTOP_MS);
    bash.once('exit', (code) => {
      clearTimeout(backstop);
      if (code !== 0) return reject(new Error(`the quickstart failed (exit ${code}):\n${stdout}\n${stderr}`));
      const outputs = commands.map((_, i) => {
        const start = i === 0 ? 0 : stdout.indexOf(`@@step ${i - 1}@@\n`) + `@@step ${i - 1}@@\n`.length;
        return stdout.slice(start, stdout.indexOf(`\n@@step ${i}@@\n`)).trim();
      });
      const vars = Object.fromEntries([...stdout.matchAll(/^@@var ([A-Z_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
      resolve({ outputs, vars, stderr });
    });
  });
}

describe('the README quickstart', () => {
  let dir: string;
  let platform: Started | undefined;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vap-quickstart-'));
    const port = await freePort();
    // What a newcomer's shell has: no test settings, no vendor keys.
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LANG: process.env.LANG ?? 'C.UTF-8',
      // The machine's own: tsx keeps its compile cache there, as it would for a newcomer's second start.
      TMPDIR: tmpdir(),
      PORT: String(port),
      DATA_DIR: join(dir, 'data'),
      PLATFORM_REGISTRY_DIR: join(dir, 'registry'),
    };
    platform = await startPlatformProcess(env);
  });

  afterAll(async () => {
    if (platform) await stopProcess(platform.child);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs as written, from a key to a call, its transcript and recording, a meeting link and a chat', async () => {
    const commands = quickstartCommands(await readFile(join(ROOT, 'README.md'), 'utf8'));
    const { outputs, vars } = await runInBash(commands, env);
    const api = `http://127.0.0.1:${env.PORT}`;
    const step = (pattern: RegExp): string => {
      const i = commands.findIndex((c) => pattern.test(c));
      expect(i, `a quickstart step matching ${pattern}`).toBeGreaterThanOrEqual(0);
      return outputs[i]!;
    };
    const json = (pattern: RegExp) => JSON.parse(step(pattern)) as Record<string, any>;

    expect(vars.API).toBe(api);
    expect(vars.KEY).toMatch(/^vak_/);
    expect(vars.AGENT).toMatch(/^agt_/);
    expect(vars.NUMBER).toMatch(/^\+1415\d{7}$/);
    expect(vars.NUMBER_ID).toMatch(/^pn_/);
    expect(vars.CALL).toMatch(/^call_/);
    const call = vars.CALL!;
    const headers = { 'x-api-key': vars.KEY! };

    // Following the call while it runs: one call in a call state; the list is a page of LiveCalls.
    const followed = json(/^curl -s "\$API\/api\/calls\/\$CALL"/);
    expect(followed).toMatchObject({ id: call, agentId: vars.AGENT, type: 'voice', direction: 'outbound', from: vars.NUMBER, to: '+12025550100' });
    expect(CALL_STATES).toContain(followed.state);
    const live = json(/^curl -s "\$API\/api\/calls" /);
    expect(live).toMatchObject({ page: 1, limit: 10 });
    for (const c of live.data) expect(Object.keys(c).sort()).toEqual(['agentId', 'answeredAt', 'createdAt', 'direction', 'from', 'id', 'state', 'to', 'type']);

    // After the wait: the call is over and points at its record.
    const ended = await (await fetch(`${api}/api/calls/${call}`, { headers })).json();
    expect(TERMINAL_CALL_STATES.has(ended.state as CallState)).toBe(true);
    expect(ended).toMatchObject({ state: 'completed', historyId: call });
    expect(ended.answeredAt).not.toBeNull();

    const history = json(/^curl -s "\$API\/api\/history\/\$CALL" /);
    expect(history).toMatchObject({ _id: call, agentType: 'voice', mobileNumber: '+12025550100' });
    expect(history.callTranscript).toMatch(/^agent: .+\nuser: .+/);
    expect(history.callRecordingUrl).toMatch(/\.wav$/);

    const recording = json(/recording-url/);
    expect(Date.parse(recording.expiresAt)).toBeGreaterThan(Date.now());
    const audio = await fetch(recording.url);
    expect(audio.status).toBe(200);
    const wav = Buffer.from(await audio.arrayBuffer());
    expect([wav.subarray(0, 4).toString(), wav.subarray(8, 12).toString()]).toEqual(['RIFF', 'WAVE']);
    expect(wav.length).toBeGreaterThan(8_000);

    // A meeting link (201 only answers room_url) whose page opens, and a chat session.
    const meeting = json(/meeting-link/);
    expect(meeting.room_url).toMatch(new RegExp(`^${api}/meeting/call_\\w+\\?token=`));
    const page = await fetch(meeting.room_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Ava');
    const chat = json(/\/api\/chats/);
    expect(chat).toMatchObject({ agentName: 'Ava' });
    expect(chat.chatId).toMatch(/^call_/);
    expect(chat.chatUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/web-chat$/);
  });
});
