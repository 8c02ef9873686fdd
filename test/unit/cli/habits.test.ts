/**
 * kubectl's habits in `ovnk`, run as a user runs the built command: `-o yaml` beside `-o json`,
 * `ovnk completion bash|zsh|fish`, an Examples section in every command's help, an unknown flag
 * named as such (with the closest known one) before any missing required flag, `Warning:` for
 * legal input that is likely a mistake, and tables with headers in natural order.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type CliRun, documentOf, ovnk } from '../../support/cli';
import { repoRoot } from '../../support/dist';

const colored = join(repoRoot, 'test', 'fixtures', 'colored-enterprise.yaml');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovnk-habits-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every command of the built program and its `--help` run, found through the Commands of each help. */
function helps(): Map<string, CliRun> {
  const paths = new Map<string, CliRun>();
  const walk = (path: string[]) => {
    const run = ovnk([...path, '--help']);
    paths.set(path.join(' '), run);
    const help = run.stdout;
    const section = help.split(/\nCommands:\n/)[1]?.split(/\n\n/)[0] ?? '';
    for (const line of section.split('\n')) {
      const name = /^ {2}([a-z][a-z-]*)/.exec(line)?.[1];
      if (name && name !== 'help') walk([...path, name]);
    }
  };
  walk([]);
  return paths;
}

/** What bash completes for `ovnk <words> <cur>`, through the script `ovnk completion bash` prints. */
function bashCompletes(script: string, words: string[]): string[] {
  const file = join(dir, 'ovnk.bash');
  writeFileSync(file, script);
  const all = ['ovnk', ...words];
  const program = [
    `source ${file}`,
    `COMP_WORDS=(${all.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${all.length - 1}`,
    '_ovnk',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const run = spawnSync('bash', ['-c', program], { encoding: 'utf8', cwd: dir });
  expect(run.stderr).toBe('');
  return run.stdout.split('\n').filter(Boolean).sort();
}

describe("kubectl's habits", () => {
  it('prints the plan document as YAML with -o yaml, the same document as -o json', () => {
    const yaml = ovnk(['plan', '-f', colored, '-o', 'yaml']);
    const json = ovnk(['plan', '-f', colored, '-o', 'json']);
    expect(yaml.code).toBe(0);
    expect(parse(yaml.stdout)).toEqual(documentOf(json));
  });

  it('prints an error as a YAML document with -o yaml, and names yaml among the formats', () => {
    const run = ovnk(['plan', '-f', join(dir, 'missing.yaml'), '-o', 'yaml']);
    expect(run.code).toBe(3);
    expect(parse(run.stdout)).toMatchObject({ ok: false, exitCode: 3, path: '-f' });
    const unknown = ovnk(['plan', '-f', colored, '-o', 'xml']);
    expect(unknown.code).toBe(3);
    expect(documentOf(unknown).error).toBe('unknown output format "xml": use -o text, -o json or -o yaml');
  });

  it('shows an Examples section in the help of every command, each example starting with ovnk', () => {
    const all = helps();
    expect([...all.keys()]).toEqual(expect.arrayContaining(['', 'plan', 'lab vm up', 'completion', 'inventory']));
    for (const [path, help] of all) {
      expect(help.code, path).toBe(0);
      const section = help.stdout.split('\nExamples:\n')[1];
      expect(section, `ovnk ${path} --help has no Examples`).toBeDefined();
      for (const line of section!.trimEnd().split('\n')) expect(line, path).toMatch(/^ {2}(ovnk |source <\(ovnk )/);
    }
    // one `--help` process per command (27 of them): about 1.5 s each on a loaded 2-core machine
  }, 120_000);

  it('names an unknown flag and the closest known one before a missing required flag', () => {
    const run = ovnk(['plan', '--fiel', colored]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("error: unknown option '--fiel'");
    expect(run.stderr).toContain('(Did you mean --file?)');
    expect(run.stderr).not.toContain('required option');
    // without an unknown flag, the missing one is still what is said
    expect(ovnk(['plan']).stderr).toContain("required option '-f, --file <file>' not specified");
  });

  it('completes commands, flags, -o formats and file names in bash from `ovnk completion bash`', () => {
    const run = ovnk(['completion', 'bash']);
    expect(run.code).toBe(0);
    const script = run.stdout;
    expect(bashCompletes(script, ['l'])).toEqual(['lab']);
    expect(bashCompletes(script, ['lab', 'vm', ''])).toEqual(['--help', '--quiet', '-q', 'down', 'status', 'up']);
    expect(bashCompletes(script, ['plan', '--pr'])).toEqual(['--previous']);
    expect(bashCompletes(script, ['plan', '-f', 'x.yaml', '-o', ''])).toEqual(['json', 'text', 'yaml']);
    expect(bashCompletes(script, ['diagram', '--output', ''])).toEqual(['dot', 'png', 'svg']);
    writeFileSync(join(dir, 'networks.yaml'), '');
    expect(bashCompletes(script, ['apply', '-f', 'netw'])).toEqual(['networks.yaml']);
    expect(bashCompletes(script, ['apply', '--owner', ''])).toEqual([]);
  });

  it('warns on stderr and in the JSON document of a namespace selector that matches no namespace, and plans on', () => {
    const lines = readFileSync(colored, 'utf8').split('\n');
    const green = lines.findIndex((l) => l.includes('namespaceSelector: {matchLabels: {tenant: green}}'));
    lines[green] = lines[green]!.replace('tenant: green', 'tenant: gren');
    const typo = join(dir, 'typo.yaml');
    writeFileSync(typo, lines.join('\n'));
    const json = ovnk(['plan', '-f', typo, '-o', 'json']);
    expect(json.code).toBe(0);
    const cudn = 'ClusterUserDefinedNetwork/green-network: spec.namespaceSelector';
    const cnc =
      'ClusterNetworkConnect/colored-enterprise: spec.networkSelectors[1].primaryUserDefinedNetworkSelector.namespaceSelector';
    expect(documentOf(json).warnings).toEqual([
      expect.objectContaining({ reason: 'NamespaceSelectorMatchesNothing', path: cudn }),
    ]);
    expect(json.stderr).toBe(
      `Warning: ${cudn}: matches no namespace (the Inventory lists blue, green, yellow, red): the network serves none, so nothing of it is created\n`,
    );
    // a typo in the connect's namespace selector drops yellow out of the connect
    const none = join(dir, 'none.yaml');
    writeFileSync(none, readFileSync(colored, 'utf8').replace('values: [yellow, red]', 'values: [yelow]'));
    const text = ovnk(['plan', '-f', none]);
    expect(text.stderr).toBe(
      `Warning: ${cnc}: matches no namespace (the Inventory lists blue, green, yellow, red): this selector connects no network\n`,
    );
    expect(text.stdout).toMatch(/^NETWORK +ID +TOPOLOGY/);
    expect(ovnk(['plan', '-f', colored, '-o', 'json']).stderr).toBe('');
    expect(documentOf(ovnk(['plan', '-f', colored, '-o', 'json']))).not.toHaveProperty('warnings');
  });

  it('prints plan text as tables with headers, nodes in natural order (node-2 before node-10)', () => {
    const nodes = Array.from({ length: 11 }, (_, i) => `node-${i + 1}`);
    const inventory = readFileSync(colored, 'utf8').replace(
      /nodes:\n( {2}- .*\n)+/,
      `nodes:\n${nodes.map((n) => `  - {name: ${n}}`).join('\n')}\n`,
    );
    const file = join(dir, 'eleven.yaml');
    writeFileSync(file, inventory);
    const run = ovnk(['plan', '-f', file]);
    expect(run.code, run.stderr).toBe(0);
    const table = run.stdout.split('\n\n').find((s) => s.startsWith('NODE '))!;
    expect(table.split('\n')[0]).toMatch(/^NODE +ID +NETWORK +HOST SUBNETS$/);
    const named = table.split('\n').flatMap((l) => /^(node-\d+) /.exec(l)?.[1] ?? []);
    expect(named).toEqual(nodes);
    const zones = run.stdout.split('\n\n').find((s) => s.startsWith('ZONE '))!;
    expect(
      zones
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(' ')[0]),
    ).toEqual(nodes);
  });

  it('prints zsh (bash through bashcompinit) and fish scripts, and refuses another shell with exit 3', () => {
    const zsh = ovnk(['completion', 'zsh']);
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toContain('bashcompinit');
    expect(zsh.stdout).toContain('complete -o default -F _ovnk ovnk');
    expect(spawnSync('bash', ['-n'], { input: zsh.stdout.replace(/^autoload.*$/m, '') }).status).toBe(0);
    const fish = ovnk(['completion', 'fish']);
    expect(fish.code).toBe(0);
    expect(fish.stdout).toContain(`complete -c ovnk -n "__ovnk_at 'lab vm'" -a 'up'`);
    expect(fish.stdout).toContain(`complete -c ovnk -n "__ovnk_at 'plan'" -s o -l output -x -a 'text json yaml'`);
    expect(fish.stdout).toContain(`complete -c ovnk -n "__ovnk_at 'plan'" -s f -l file -r -F`);
    const tcsh = ovnk(['completion', 'tcsh']);
    expect(tcsh.code).toBe(3);
    expect(tcsh.stderr).toContain('unknown shell "tcsh": use bash, zsh, fish');
  });
});
