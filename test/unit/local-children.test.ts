/**
 * Invariant: a store the local platform runs as a child process (DynamoDB Local, cognito-local) ends with
 * the process that started it, even when that process dies of an uncaught exception without its stop.
 * The child here is a plain Node process standing in for the JVM: what is under test is the parent's side.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PORTS_MODULE = fileURLToPath(new URL('../../lib/local/platform/ports.ts', import.meta.url));

/** Whether a process with this pid is still there (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a parent that starts a long-lived child, prints the child's pid and then does `then`; resolves with
 * the pid and the parent's exit code once the parent has exited.
 */
function parentThat(then: string, guarded: boolean): Promise<{ childPid: number; code: number | null }> {
  const script = `
    import { spawn } from 'node:child_process';
    import { endWithThisProcess } from ${JSON.stringify(PORTS_MODULE)};
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    ${guarded ? 'endWithThisProcess(child);' : ''}
    process.stdout.write(String(child.pid) + '\\n');
    setTimeout(() => { ${then} }, 50);
  `;
  return new Promise((resolve, reject) => {
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    parent.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    parent.once('error', reject);
    parent.once('exit', (code) => resolve({ childPid: Number(out.trim()), code }));
  });
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i += 1) await new Promise((r) => setTimeout(r, 20));
  return !alive(pid);
}

describe('a local store child process', () => {
  it('ends when its parent dies of an uncaught exception', async () => {
    const { childPid, code } = await parentThat("throw new Error('crash');", true);
    expect(code).toBe(1);
    expect(childPid).toBeGreaterThan(0);
    expect(await gone(childPid)).toBe(true);
  });

  it('ends when its parent calls process.exit without stopping it', async () => {
    const { childPid, code } = await parentThat('process.exit(3);', true);
    expect(code).toBe(3);
    expect(await gone(childPid)).toBe(true);
  });

  it('outlives a parent that does not hand it over (what the guard is for)', async () => {
    const { childPid } = await parentThat("throw new Error('crash');", false);
    try {
      expect(alive(childPid)).toBe(true);
    } finally {
      process.kill(childPid, 'SIGKILL');
    }
  });
});
