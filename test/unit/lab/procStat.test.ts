/**
 * The one reader of /proc/<pid>/stat (lab/procStat.ts) on real processes, among them one whose
 * command name holds ") " as stat's own separator does: the fields must still line up.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuTicksOf, statFields } from '../../../lab/procStat';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** A sleeping process whose command name (stat's field 2) is `name`. */
function sleeperNamed(name: string): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-procstat-'));
  const program = path.join(dir, name);
  symlinkSync(spawnSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).stdout.trim(), program);
  const child = spawn(program, ['600'], { stdio: 'ignore' });
  cleanups.push(() => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  return child.pid!;
}

describe('reading /proc/<pid>/stat', () => {
  it('reads the fields after a command name that holds ") " itself', async () => {
    const pid = sleeperNamed('a) b) c');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const fields = statFields(pid)!;
    expect(fields[0]).toMatch(/^[RSD]$/); // the state, field 3
    expect(Number(fields[1])).toBe(process.pid); // the parent, field 4
  });

  it("counts this process's CPU, and more with the children it waited for", () => {
    spawnSync(process.execPath, ['-e', 'while (process.cpuUsage().user < 3e5);']);
    const own = cpuTicksOf('self');
    expect(own).toBeGreaterThan(0);
    expect(cpuTicksOf('self', true)).toBeGreaterThanOrEqual(own + 20);
  });

  it('reads nothing, and no CPU, once a process is gone', async () => {
    const child = spawn('true');
    await new Promise((resolve) => child.on('exit', resolve));
    expect(statFields(child.pid!)).toBeUndefined();
    expect(cpuTicksOf(child.pid!)).toBe(0);
  });
});
