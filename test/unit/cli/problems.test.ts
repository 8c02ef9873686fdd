import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOf, ovnk } from '../../support/cli';
import { repoRoot } from '../../support/dist';

// blue-green with two refusals of different kinds: a connect subnet that overlaps a network
// (ConnectSubnetConflict, the connect's) and a second primary network in namespace blue (InvalidSpec, a network's).
const secondPrimary = `---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: zz-second}
spec:
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: blue}}
  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.50.0.0/16}]}}
`;
let dir: string;
let refused: string;
let unusable: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovnk-problems-'));
  const base = readFileSync(join(repoRoot, 'test', 'fixtures', 'blue-green.yaml'), 'utf8');
  refused = join(dir, 'refused.yaml');
  writeFileSync(refused, base.replace('cidr: 192.168.0.0/16', 'cidr: 103.103.0.0/16') + secondPrimary);
  unusable = join(dir, 'unusable.yaml');
  writeFileSync(
    unusable,
    base.replace('networkPrefix: 24', 'networkPrefix: twenty-four') +
      '---\napiVersion: k8s.ovn.org/v1\nkind: ClusterNetworkConect\nmetadata: {name: typo}\nspec: {}\n',
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a refused plan', () => {
  it('says "ok": false in its JSON and lists every problem at the top level (exit 1)', () => {
    const run = ovnk(['plan', '-f', refused, '-o', 'json']);
    expect(run.code).toBe(1);
    const document = documentOf(run);
    expect(document.ok).toBe(false);
    expect(document.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          reason: 'ConnectSubnetConflict',
          path: 'ClusterNetworkConnect/blue-green-connect: spec.connectSubnets',
        }),
        expect.objectContaining({ reason: 'InvalidSpec', path: 'ClusterUserDefinedNetwork/zz-second' }),
      ]),
    );
  });

  it('shows every problem in text, on stdout with the plan (exit 1)', () => {
    const run = ovnk(['plan', '-f', refused]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Problems \(\d+, nothing may be applied\)$/m);
    expect(run.stdout).toContain(
      '  ! ConnectSubnetConflict: ClusterNetworkConnect/blue-green-connect: spec.connectSubnets: ',
    );
    expect(run.stdout).toContain(
      '  ! InvalidSpec: ClusterUserDefinedNetwork/zz-second: namespace blue already has primary network',
    );
  });

  it('an accepted plan says "ok": true with no problems', () => {
    const document = documentOf(
      ovnk(['plan', '-f', join(repoRoot, 'test', 'fixtures', 'blue-green.yaml'), '-o', 'json']),
    );
    expect(document).toMatchObject({ ok: true, problems: [] });
  });
});

describe('unusable input', () => {
  it('shows every problem in text on stderr, each with the file and the field path, a misspelt kind with the kind meant (exit 3)', () => {
    const run = ovnk(['plan', '-f', unusable]);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`error: 2 problems in ${unusable}\n`);
    expect(run.stderr).toContain(
      `  ${unusable}: ClusterNetworkConect/typo: kind: kind "ClusterNetworkConect" is not one of `,
    );
    expect(run.stderr).toMatch(
      /kind "ClusterNetworkConect" is not one of .*\(did you mean "ClusterNetworkConnect"\?\)\n/,
    );
    expect(run.stderr).toContain(
      `  ${unusable}: ClusterNetworkConnect/blue-green-connect: spec.connectSubnets[0].networkPrefix: `,
    );
  });

  it('lists every problem in its JSON document (exit 3)', () => {
    const run = ovnk(['plan', '-f', unusable, '-o', 'json']);
    expect(run.code).toBe(3);
    expect(documentOf(run)).toMatchObject({ ok: false, exitCode: 3, file: unusable });
    expect(
      documentOf(run)
        .problems.map((p: { path: string }) => p.path)
        .sort(),
    ).toEqual([
      'ClusterNetworkConect/typo: kind',
      'ClusterNetworkConnect/blue-green-connect: spec.connectSubnets[0].networkPrefix',
    ]);
  });
});
