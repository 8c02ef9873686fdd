import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import '../setup/lab';
import { onTerminal } from '../support/cli';

const lab = inject('lab');
// the contract is the built program's: exit codes and streams of a real process (npm test builds first)
const cli = path.resolve(__dirname, '../../dist/cli/main.js');

/** Run `ovnk ...`; returns the exit code and what went to stdout and stderr. */
async function ovnk(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run "npm run build" first`);
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

describe('ovnk lab', () => {
  it('prints the running lab as the status document, with the health of its daemons, for -o json and --json', async () => {
    for (const flag of [['-o', 'json'], ['--json']]) {
      const result = await ovnk('lab', 'status', '--name', lab.name, ...flag);
      expect(result.code).toBe(0);
      // the lab's status, and each daemon's health beside it
      expect(JSON.parse(result.stdout)).toEqual({ ...lab, healthy: true, daemons: expect.any(Array) });
    }
  });

  it('prints the inventory and an empty pod list as JSON documents', async () => {
    const inventory = await ovnk('lab', 'inventory', '--name', lab.name, '-o', 'json');
    expect(JSON.parse(inventory.stdout)).toMatchObject({ kind: 'Inventory', metadata: { name: lab.name } });
    const pods = await ovnk('lab', 'pods', '--name', lab.name, '-o', 'json');
    expect(JSON.parse(pods.stdout)).toMatchObject({ name: lab.name, pods: expect.any(Array) });
  });

  it('prints status and inventory for people on stdout, so they can be piped, with stderr empty', async () => {
    const status = await ovnk('lab', 'status', '--name', lab.name);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(lab.nodes[0].chassisId);
    expect(status.stderr).toBe('');
    const inventory = await ovnk('lab', 'inventory', '--name', lab.name);
    expect(inventory.code).toBe(0);
    expect(inventory.stdout).toMatch(/^apiVersion: ovnk\/v1alpha1\nkind: Inventory\n/);
    expect(inventory.stderr).toBe('');
  });

  it('treats an unknown flag as bad input (exit 3)', async () => {
    const result = await ovnk('lab', 'up', '--bogus');
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/unknown option '--bogus'/);
  });

  it('rejects an unknown OVN with exit 3 and a JSON error document naming the value', async () => {
    const result = await ovnk('lab', 'up', '--ovn', 'focal', '-o', 'json');
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: false,
      exitCode: 3,
      error: expect.stringContaining('--ovn focal is not known'),
    });
  });

  it('rejects a node count that is not a whole number from 1 (exit 3)', async () => {
    expect((await ovnk('lab', 'up', '--nodes', 'three', '--name', 'never')).code).toBe(3);
  });

  it('refuses an up of the running lab under another OVN (exit 1)', async () => {
    const other = lab.ovn === 'bookworm' ? 'trixie' : 'bookworm';
    const result = await ovnk('lab', 'up', '--name', lab.name, '--ovn', other, '-o', 'json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error).toMatch(/already running with the/);
  });

  it('refuses status of a lab that is not running, saying how to start it (exit 1)', async () => {
    const result = await ovnk('lab', 'status', '--name', 'nothing-here', '-o', 'json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error).toBe(
      'lab "nothing-here" is not running: start it with "ovnk lab up --name nothing-here"',
    );
  });

  it('refuses exec into a pod that is not in the lab (exit 1) and a malformed pod name (exit 3)', async () => {
    expect((await ovnk('lab', 'exec', '--name', lab.name, 'nope/nope', '--', 'true')).code).toBe(1);
    expect((await ovnk('lab', 'exec', '--name', lab.name, 'justaname', '--', 'true')).code).toBe(3);
  });
});

describe('ovnk lab up progress', () => {
  const name = `tp${process.pid}`;
  afterAll(() => {
    spawnSync(process.execPath, [cli, 'lab', 'down', '--name', name], { encoding: 'utf8' });
  });

  it('shows its steps with the elapsed time on a terminal, and nothing on stderr when piped', async () => {
    const shown = onTerminal(['lab', 'up', '--name', name, '--nodes', '1', '--ovn', lab.ovn]);
    expect(shown.code, shown.terminal).toBe(0);
    expect(shown.terminal).toMatch(new RegExp(`^lab up {2}\\d+\\.\\ds {2}lab "${name}": starting 1 node\\(s\\)`, 'm'));
    expect(shown.stdout).toMatch(new RegExp(`^lab ${name} is up in `));
    expect((await ovnk('lab', 'down', '--name', name)).code).toBe(0);
    const piped = await ovnk('lab', 'up', '--name', name, '--nodes', '1', '--ovn', lab.ovn);
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toMatch(new RegExp(`^lab ${name} is up in `));
    expect((await ovnk('lab', 'down', '--name', name)).code).toBe(0);
  });
});
