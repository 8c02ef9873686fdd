/**
 * Preconfigured Layer2 addresses with packets (issue 26 point 8): with the Inventory's
 * enablePreconfiguredUDNAddresses (upstream's --enable-preconfigured-udn-addresses), a primary
 * Layer2 network's gateway is its `defaultGatewayIPs` (util/multi_network.go GetNodeGatewayIP:
 * the transit router's `trtos-` port holds it, and the pods' gateway is it), its pods' addresses
 * skip the infrastructure and reserved subnets (newIPAllocatorForNetwork), and the subnet's first
 * address, the default gateway without the flag, answers nobody.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import '../setup/lab';
import { pingWithRetries } from '../../lab';
import { nbctl, ovnk, podIPs, podNetns, reaches, syncChassis } from './networks-helpers';

const lab = inject('lab');
const file = path.join(tmpdir(), `ovnk-preconfigured-${process.pid}.yaml`);
const run = (command: string) => ovnk(command, '-f', file, '--lab', lab.name, '-o', 'json');

const stack = `apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: preconfigured-l2}
spec:
  ipFamilies: [IPv4]
  masqueradeSubnets: [169.254.0.0/17]
  enablePreconfiguredUDNAddresses: true
  namespaces: [{name: pre, labels: {net: pre}}]
  pods:
  - {name: a, namespace: pre, node: ovn-worker}
  - {name: b, namespace: pre, node: ovn-worker2}
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: pre}
spec:
  namespaceSelector: {matchLabels: {net: pre}}
  network:
    topology: Layer2
    layer2:
      role: Primary
      subnets: [10.70.0.0/24]
      defaultGatewayIPs: [10.70.0.5]
      infrastructureSubnets: [10.70.0.4/30]
      reservedSubnets: [10.70.0.0/30]
`;

beforeAll(() => {
  writeFileSync(file, stack);
  const applied = run('apply');
  expect(applied.status, applied.stderr).toBe(0);
  syncChassis(lab);
});

afterAll(() => {
  ovnk('destroy', '-f', file, '--lab', lab.name);
  rmSync(file, { force: true });
});

describe('a primary Layer2 network with preconfigured addresses', () => {
  it('puts the default gateway IP on the transit router and gives pods addresses after the reserved and infrastructure subnets', () => {
    expect(nbctl(lab, 'get', 'Logical_Router_Port', 'trtos-cluster_udn_pre_ovn_layer2_switch', 'networks').trim()).toBe(
      '["10.70.0.5/24"]',
    );
    expect([podIPs(lab, 'pre', 'a'), podIPs(lab, 'pre', 'b')]).toEqual([['10.70.0.8'], ['10.70.0.9']]);
  });

  it('the pods reach their preconfigured gateway and each other across nodes, and the default .1 answers nobody', async () => {
    const a = podNetns(lab, 'pre', 'a');
    expect(await reaches(a, '10.70.0.5', 20), 'pre/a -> its gateway 10.70.0.5').toBe(true);
    expect(await reaches(a, '10.70.0.9', 20), 'pre/a -> pre/b').toBe(true);
    expect(await pingWithRetries(a, '10.70.0.1', { tries: 2, pauseMs: 200 })).toBe(false);
  });
});
