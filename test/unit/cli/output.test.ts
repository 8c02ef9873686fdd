import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { scaleTopology } from '../../../stacks/scale';
import { cliPath, documentOf, ovnk } from '../../support/cli';

// A per-node topology whose plan document is several MB: 10 networks, 2 connects, 10 zones.
const spec = { networks: 10, connects: 2, nodes: 10 };
let dir: string;
let big: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovnk-output-'));
  big = join(dir, 'scale.yaml');
  const topology = scaleTopology(spec, 'per-node');
  writeFileSync(
    big,
    [topology.inventory, ...topology.networks, ...topology.connects].map((o) => stringify(o)).join('---\n'),
  );
  ovnk(['--version']); // checks dist/ once, before the timed children
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Run ovnk with stdout to a pipe this test drains late and slowly; resolves with all it read. */
function throughSlowReader(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.pause();
    child.once('error', reject);
    const read = (async () => {
      await sleep(1500); // the writer meets a full pipe long before this
      for await (const chunk of child.stdout) {
        chunks.push(chunk as Buffer);
        await sleep(3);
      }
    })();
    child.once('close', (code) =>
      read.then(() => resolve({ code: code ?? -1, stdout: Buffer.concat(chunks).toString('utf8') }), reject),
    );
  });
}

describe('ovnk results arrive whole', () => {
  it('a plan document of several MB arrives whole through a pipe whose reader is late and slow', async () => {
    const { code, stdout } = await throughSlowReader(['plan', '-f', big, '-o', 'json']);
    expect(code).toBe(0);
    expect(stdout.length).toBeGreaterThan(3 * 1024 * 1024);
    const document = JSON.parse(stdout);
    expect(Object.keys(document.zones)).toHaveLength(spec.nodes);
  }, 120_000);

  it('a plan document of several MB arrives whole in a file', async () => {
    const out = join(dir, 'plan.json');
    const fd = openSync(out, 'w');
    const child = spawn(process.execPath, [cliPath, 'plan', '-f', big, '-o', 'json'], {
      stdio: ['ignore', fd, 'inherit'],
    });
    const code = await new Promise((resolve) => child.once('close', resolve));
    closeSync(fd);
    expect(code).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(out, 'utf8')).zones)).toHaveLength(spec.nodes);
  }, 120_000);

  it('a reader that stops early (like `| head`) ends the command quietly, without a stack trace', async () => {
    const child = spawn(process.execPath, [cliPath, 'plan', '-f', big, '-o', 'json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(stderr).toBe('');
  }, 120_000);
});

describe('ovnk results go to stdout, in text mode too', () => {
  it('the text plan is on stdout and stderr stays empty', () => {
    const run = ovnk(['plan', '-f', 'stacks/topologies/colored-enterprise.yaml']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^NETWORK +ID +TOPOLOGY +ROLE .*\ncluster_udn_blue-network +\d+ +Layer3 +Primary /);
    expect(run.stderr).toBe('');
  });

  it('--help of the program and of a command, and --version, are on stdout with exit 0', () => {
    for (const args of [['--help'], ['plan', '--help'], ['lab', 'status', '--help']]) {
      const run = ovnk(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toMatch(/^Usage: ovnk /);
      expect(run.stderr).toBe('');
    }
    const version = ovnk(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toBe(
      `${JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')).version}\n`,
    );
  });

  it('a usage error goes to stderr with exit 3 and nothing on stdout', () => {
    const run = ovnk(['plan', '-f', 'stacks/layer3-pair.yaml', '--bogus']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/unknown option '--bogus'/);
  });

  it('an error in text mode goes to stderr, and -o json puts its document on stdout', () => {
    const text = ovnk(['plan', '-f', join(dir, 'missing.yaml')]);
    expect(text.code).toBe(3);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/^error: cannot read .*missing\.yaml: ENOENT/);
    const json = ovnk(['plan', '-f', join(dir, 'missing.yaml'), '-o', 'json']);
    expect(documentOf(json)).toMatchObject({ ok: false, exitCode: 3 });
  });
});
