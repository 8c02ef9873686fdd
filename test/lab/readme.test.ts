import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../support/cli';
import { repoRoot, requireFreshDist } from '../support/dist';

// Every `ovnk` command the README's sh blocks show runs as written against a lab of its own (a
// README reader's lab: `lab up` first, `lab down` last); only the lab's name is added, so the
// run does not touch the shared test lab. Each exits 0 and prints its result on stdout.
const name = `readme${process.pid}`;

function readmeCommands(): string[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => /(^|\|\s*)ovnk /.test(line));
}

/** The README's line with this lab's name: `--lab` names it, `lab SUBCOMMAND` gets `--name`. */
function named(line: string): string {
  return line
    .replace(/--lab(?=\s+-|\s*$)/g, `--lab ${name}`)
    .replace(/\bovnk lab (up|down|status|inventory|pods)\b/g, `ovnk lab $1 --name ${name}`);
}

let cwd: string;
beforeAll(() => {
  requireFreshDist(['cli', 'provider', 'lab', 'components', 'stacks']);
  cwd = mkdtempSync(join(tmpdir(), 'ovnk-readme-'));
  symlinkSync(join(repoRoot, 'stacks'), join(cwd, 'stacks'));
  // the README's diagram command writes its picture under docs/: here, not over the committed one
  mkdirSync(join(cwd, 'docs'));
});
afterAll(() => {
  spawnSync(process.execPath, [cliPath, 'lab', 'down', '--name', name], { encoding: 'utf8' });
  rmSync(cwd, { recursive: true, force: true });
});

function run(line: string): { code: number; stdout: string; stderr: string } {
  const script = `set -o pipefail; ovnk() { ${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} "$@"; }; ${line}`;
  const result = spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8', timeout: 300_000 });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

describe("the README's ovnk commands", () => {
  const commands = readmeCommands();
  const first = commands.filter((c) => / lab up\b/.test(c));
  const last = commands.filter((c) => / lab down\b/.test(c));
  const middle = commands.filter((c) => !first.includes(c) && !last.includes(c));

  it('are found: the lab, every file command, and each input form', () => {
    expect(first.length).toBeGreaterThan(0);
    expect(last.length).toBeGreaterThan(0);
    for (const form of ['ovnk plan', 'ovnk apply', 'ovnk diff', 'ovnk destroy', '-f -', '-o json', '--lab'])
      expect(
        commands.some((c) => c.includes(form)),
        form,
      ).toBe(true);
  });

  it('run as written, in order, each exiting 0 with its result on stdout or in its --output-file', () => {
    const ran: string[] = [];
    for (const line of [...first, ...middle, ...last]) {
      const command = named(line);
      const result = run(command);
      expect(result.code, `${command}\n${result.stderr}`).toBe(0);
      const file = /--output-file\s+(\S+)/.exec(command)?.[1];
      if (file !== undefined) expect(statSync(join(cwd, file)).size, command).toBeGreaterThan(0);
      else if (!/>\s*\S+$/.test(command)) expect(result.stdout, command).not.toBe('');
      ran.push(command);
    }
    expect(ran.filter((c) => c.includes(`--lab ${name}`)).length).toBeGreaterThan(5);
  }, 900_000);
});
