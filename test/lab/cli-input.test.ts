import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import '../setup/lab';
import { documentOf, ovnk } from '../support/cli';
import { repoRoot } from '../support/dist';

// `-f -` through every step that reads the input: the command, its Uplink section and the target
// (standard input can be read only once, so each must get the same documents).
const lab = inject('lab');
const topology = `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: t-cli-stdin}
spec:
  namespaces: [{name: stdin-ns, labels: {network: stdin}}]
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: stdin}
spec:
  namespaceSelector: {matchLabels: {network: stdin}}
  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.77.0.0/16, hostSubnet: 24}]}}
`;

describe('ovnk -f - against the lab', () => {
  it('plan --lab of a file with Uplinks reads standard input once and plans what the file plans', () => {
    const fixture = join(repoRoot, 'test', 'fixtures', 'uplink-lab.yaml');
    const fromFile = documentOf(ovnk(['plan', '-f', fixture, '--lab', lab.name, '-o', 'json']));
    const piped = ovnk(['plan', '-f', '-', '--lab', lab.name, '-o', 'json'], {
      input: readFileSync(fixture, 'utf8'),
    });
    expect(piped.code, piped.stderr).toBe(0);
    expect(documentOf(piped)).toEqual(fromFile);
    expect(fromFile.uplinkStates.length).toBeGreaterThan(0);
  });

  it('apply, diff and destroy take the topology on standard input', () => {
    const args = ['-f', '-', '--lab', lab.name, '-o', 'json'];
    const applied = ovnk(['apply', ...args], { input: topology });
    expect(applied.code, applied.stdout).toBe(0);
    expect(documentOf(applied)).toMatchObject({ ok: true, owner: 't-cli-stdin' });
    const diffed = ovnk(['diff', ...args], { input: topology });
    expect(diffed.code, diffed.stdout).toBe(0);
    expect(documentOf(diffed).drift).toBe(false);
    const destroyed = ovnk(['destroy', ...args], { input: topology });
    expect(destroyed.code, destroyed.stdout).toBe(0);
    const after = ovnk(['diff', ...args], { input: topology });
    expect(after.code).toBe(2);
  });
});
