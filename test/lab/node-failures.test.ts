/**
 * A node that fails under a real fault: its sshd is killed (the lab's own sshd, by its pid), so
 * `ovnk apply` cannot reach it while the other nodes and the Northbound complete. The command's
 * outcome must say so in both output modes, and `ovnk lab restart` brings the node's sshd back so
 * a rerun converges (issue 25, points 2 and 7).
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { readState } from '../../lab';
import { sleep } from '../../lab/exec';
import { isRunning, readPidFile } from '../../lab/processes';
import '../setup/lab';
import { fixture } from './uplink-helpers';

const lab = inject('lab');
const cli = path.resolve(__dirname, '../../dist/cli/main.js');
const victim = lab.nodes[2]!.name;

function ovnk(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

const json = (stdout: string) => JSON.parse(stdout) as Record<string, any>;

/** SIGKILL the node's sshd by the pid the lab recorded, and wait until it is gone. */
async function killSshd(node: string): Promise<void> {
  const record = readState(lab.name)!.daemons.find((d) => d.name === `${node}/sshd`)!;
  const pid = readPidFile(record.pidFile)!;
  process.kill(pid, 'SIGKILL');
  while (isRunning(pid)) await sleep(10);
}

afterAll(() => {
  ovnk('lab', 'restart', '--name', lab.name);
  ovnk('destroy', '-f', fixture, '--lab', lab.name);
});

describe('a node whose sshd is gone during apply', () => {
  it('makes apply -o json say ok false with an error naming the node, beside exit 4', async () => {
    await killSshd(victim);
    const applied = ovnk('apply', '-f', fixture, '--lab', lab.name, '-o', 'json');
    expect(applied.code, applied.stderr).toBe(4);
    const document = json(applied.stdout);
    expect(document).toMatchObject({ ok: false, exitCode: 4, failedNodes: [victim] });
    expect(document.error).toMatch(new RegExp(`^node ${victim}: not discovered`));
    // the Northbound zone still completed: the failure is the node's alone
    expect(document.zones.central).toMatchObject({ endpoint: expect.any(String) });
    expect(document.failedZones).toBeUndefined();
  });

  it('makes apply in text mode end its summary with the failed node, not only a report line', () => {
    const applied = ovnk('apply', '-f', fixture, '--lab', lab.name);
    expect(applied.code).toBe(4);
    const lines = applied.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(new RegExp(`^failed: node ${victim}: not discovered`));
    expect(applied.stderr).toContain(`error: node ${victim}: not discovered`);
  });

  it('lab restart starts the dead sshd again, and the rerun converges with ok true and exit 0', () => {
    const restarted = ovnk('lab', 'restart', '--name', lab.name, '-o', 'json');
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(json(restarted.stdout).restarted).toEqual([`${victim}/sshd`]);
    const applied = ovnk('apply', '-f', fixture, '--lab', lab.name, '-o', 'json');
    expect(applied.code, applied.stderr).toBe(0);
    expect(json(applied.stdout)).toMatchObject({ ok: true });
    expect(json(applied.stdout).error).toBeUndefined();
  });
});
