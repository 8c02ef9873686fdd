import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LabError } from '../../lab/errors';
import { checkPrerequisites, missingPackages } from '../../lab/preflight';

describe('lab prerequisites', () => {
  it('names the Debian package of a missing program and the command that installs it', () => {
    expect(missingPackages({ '/nonexistent/ovnk-probe': 'ovnk-probe-pkg' })).toEqual(['ovnk-probe-pkg']);
    let caught: unknown;
    try {
      checkPrerequisites({ '/nonexistent/ovnk-probe': 'ovnk-probe-pkg' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LabError);
    expect((caught as LabError).kind).toBe('failing');
    expect((caught as LabError).message).toMatch(
      /not installed \(ovnk-probe-pkg\): run "npm run setup" as root, or "apt-get install -y ovnk-probe-pkg"/,
    );
  });

  it('finds every package this machine should have installed', () => {
    expect(missingPackages()).toEqual([]);
  });

  it('refuses a lab started without root, saying how to run it (exit 1)', () => {
    const cli = path.resolve(__dirname, '../../dist/cli/main.js');
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run "npm run build" first`);
    const result = spawnSync(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        cli,
        'lab',
        'up',
        '--name',
        'unprivileged',
        '-o',
        'json',
      ],
      { encoding: 'utf8' },
    );
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout).error).toMatch(
      /the lab needs root .*: run "sudo npm run setup" once, then run ovnk lab as root/,
    );
  });
});
