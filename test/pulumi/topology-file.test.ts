import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { topologyFromFiles, UnusableInputError } from '../../components';
import { documentOf, ovnk } from '../support/cli';
import { repoRoot } from '../support/dist';
import { installMocks, type Registered } from './mocks';

// One loader for both roads: the same bad file gives the same problems, in the same words, from
// `ovnk plan -f` and from the Pulumi program (stacks/index.ts through components/topologyFile.ts).
const base = readFileSync(join(repoRoot, 'test', 'fixtures', 'blue-green.yaml'), 'utf8');
const bad: Record<string, string> = {
  'a misspelled kind': base.replace('kind: ClusterNetworkConnect', 'kind: ClusterNetworkConect'),
  'malformed YAML': base.replace('connectSubnets:', 'connectSubnets: [unclosed'),
  'a field of the wrong type': base.replace('networkPrefix: 24', 'networkPrefix: twenty-four'),
  'misspelled fields and an invalid object name': base
    .replace('hostSubnet: 24', 'hostsubnet: 24')
    .replace('connectivity:', 'conectivity:')
    .replace('name: blue-network', 'name: Blue Network!'),
  'two bad fields in two objects': base
    .replace('networkPrefix: 24', 'networkPrefix: twenty-four')
    .replace(/cidr: (\d+\.\d+\.\d+\.\d+)\/16/, 'cidr: $1/33'),
};
let dir: string;
let registered: Registered[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovnk-topology-file-'));
  registered = installMocks(false);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refusalOf(file: string): UnusableInputError {
  try {
    topologyFromFiles([file]);
  } catch (error) {
    if (error instanceof UnusableInputError) return error;
    throw error;
  }
  throw new Error(`${file} was not refused`);
}

const shape = (p: { reason: string; path: string; message: string; file?: string }) => ({
  reason: p.reason,
  path: p.path,
  message: p.message,
  file: p.file,
});

describe('the CLI and the Pulumi program load topology files with one loader', () => {
  for (const [what, text] of Object.entries(bad)) {
    it(`a file with ${what} gives the same problems, in the same words, on both roads`, () => {
      const file = join(dir, `${what.replace(/ /g, '-')}.yaml`);
      writeFileSync(file, text);
      const cli = ovnk(['plan', '-f', file, '-o', 'json']);
      expect(cli.code).toBe(3);
      expect(documentOf(cli).problems.length).toBeGreaterThan(0);
      const refusal = refusalOf(file);
      expect(refusal.problems.map(shape)).toEqual(documentOf(cli).problems.map(shape));
      const said = ovnk(['plan', '-f', file]).stderr;
      for (const line of refusal.message.split('\n').slice(1)) expect(said).toContain(`${line.trim()}\n`);
    });
  }

  it("the schemas' problems reach both roads whole: exit 3, every path, the file", () => {
    const file = join(dir, 'schema.yaml');
    writeFileSync(file, bad['misspelled fields and an invalid object name']!);
    const cli = ovnk(['plan', '-f', file]);
    expect(cli.code).toBe(3);
    const paths = [
      'ClusterUserDefinedNetwork/Blue Network!: metadata.name',
      'ClusterUserDefinedNetwork/Blue Network!: spec.network.layer3.subnets[0].hostsubnet',
      'ClusterNetworkConnect/blue-green-connect: spec.conectivity',
    ];
    for (const path of paths) expect(cli.stderr).toContain(`  ${file}: ${path}: `);
    const refused = refusalOf(file).problems.map((p) => p.path);
    expect(refused).toEqual(expect.arrayContaining(paths));
  });

  it('the stack program refuses a file with a misspelled kind before registering anything', async () => {
    const file = join(dir, 'stack-typo.yaml');
    writeFileSync(file, bad['a misspelled kind']!);
    registered.length = 0;
    pulumi.runtime.setAllConfig({ 'ovnk-pulumi:topology': file, 'ovnk-pulumi:zones': 'central' });
    vi.resetModules();
    await expect(import('../../stacks/index')).rejects.toThrow(
      /ClusterNetworkConect\/blue-green-connect: kind: kind "ClusterNetworkConect" is not one of/,
    );
    expect(registered).toEqual([]);
  });
});
