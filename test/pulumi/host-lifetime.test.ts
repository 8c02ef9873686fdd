import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../support/pulumiHost';

// A test process that dies (vitest's SIGKILL after a timeout, a crash) must not leave its
// dynamic-provider host behind: on a busy machine such hosts idled for the rest of the run.

const viteNode = join(repoRoot, 'node_modules', 'vite-node', 'vite-node.mjs');
const script = join(repoRoot, 'test', 'support', 'startHostAndWait.ts');

function firstLine(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('\n')) resolve(text.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`the script exited (${code}) before printing: ${text}`)));
  });
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  for (const end = Date.now() + withinMs; Date.now() < end;) {
    if (!existsSync(`/proc/${pid}`)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !existsSync(`/proc/${pid}`);
}

it('a host ends when the process that started it is killed', async () => {
  const parent = spawn(process.execPath, [viteNode, script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  const [pid, dir] = (await firstLine(parent)).split(' ');
  try {
    expect(existsSync(`/proc/${pid}`)).toBe(true);
    parent.kill('SIGKILL');
    expect(await gone(Number(pid), 10_000)).toBe(true);
  } finally {
    if (existsSync(`/proc/${pid}`)) process.kill(Number(pid), 'SIGKILL');
    rmSync(dir!, { recursive: true, force: true });
  }
});
