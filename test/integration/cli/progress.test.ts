import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onTerminal, ovnk } from '../../support/cli';
import { startOvsdbServer, type OvsdbServer } from '../../support/ovsdbServer';
import { blueLayer3 } from '../../support/worlds';

// Progress is for a person at a terminal: proven under a real pseudo-terminal (util-linux
// `script`), with stdout redirected to a file so that only stderr reaches the terminal.
const topology = blueLayer3('t-cli-progress', [{ name: 'n1' }, { name: 'n2' }]);

let server: OvsdbServer;
let dir: string;
let file: string;

beforeAll(async () => {
  server = await startOvsdbServer();
  dir = mkdtempSync(join(tmpdir(), 'ovnk-progress-'));
  file = join(dir, 'topology.yaml');
  writeFileSync(file, topology);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('progress on stderr', () => {
  it('apply, diff and destroy on a terminal show each zone, its operations and the elapsed time', () => {
    const nb = ['-f', file, '--nb', server.unix];
    const applied = onTerminal(['apply', ...nb]);
    expect(applied.code).toBe(0);
    expect(applied.terminal).toMatch(/^apply {2}\d+\.\ds {2}zone central \(1\/1\) \.\.\.$/m);
    expect(applied.terminal).toMatch(/^apply {2}\d+\.\ds {2}zone central \(1\/1\): \d+ operations sent$/m);
    expect(applied.stdout).toMatch(/^zone central \(unix:.*\): \d+ operations sent/);
    const diffed = onTerminal(['diff', ...nb]);
    expect(diffed.code).toBe(0);
    expect(diffed.terminal).toMatch(/^diff {2}\d+\.\ds {2}zone central \(1\/1\): no drift$/m);
    const destroyed = onTerminal(['destroy', ...nb]);
    expect(destroyed.code).toBe(0);
    expect(destroyed.terminal).toMatch(/^destroy {2}\d+\.\ds {2}zone central \(1\/1\): \d+ operations sent$/m);
  });

  it('is silent with -q on a terminal, given before or after the command', () => {
    const nb = ['-f', file, '--nb', server.unix];
    for (const args of [
      ['-q', 'apply', ...nb],
      ['diff', ...nb, '-q'],
      ['destroy', ...nb, '--quiet'],
    ]) {
      const run = onTerminal(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.terminal, args.join(' ')).toBe('');
    }
  });

  it('is silent when stderr is not a terminal', () => {
    const nb = ['-f', file, '--nb', server.unix];
    for (const command of ['apply', 'diff', 'destroy']) {
      const run = ovnk([command, ...nb]);
      expect(run.code, command).toBe(0);
      expect(run.stderr, command).toBe('');
      expect(run.stdout, command).toMatch(/^zone central /);
    }
  });
});
