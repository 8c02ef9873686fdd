/**
 * A Localnet network with packets (issue 26, done-when: the lab shows packets for a secondary
 * network between two pods; ic-secondary.test.ts does Layer3 and Layer2). Two pods on different
 * nodes attach to a Localnet CUDN whose `physicalNetworkName` is the lab's bridge mapping
 * (`physnet:breth0`): upstream's localnet switch (localnet_user_defined_network_controller.go)
 * joins them through its localnet port, so their packets cross the physical network (breth0, the
 * fabric), not a Geneve tunnel: the echo requests are seen on the sending node's underlay link in
 * the fabric, from pod to pod.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readState } from '../../lab';
import '../setup/lab';
import { echoRequestsSeen } from './egress-helpers';
import { nbctl, ovnk, podIPs, podNetns, reaches, syncChassis } from './networks-helpers';

const lab = inject('lab');
const file = path.join(tmpdir(), `ovnk-localnet-pods-${process.pid}.yaml`);
const run = (command: string) => ovnk(command, '-f', file, '--lab', lab.name, '-o', 'json');

const stack = `apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: localnet-pods}
spec:
  ipFamilies: [IPv4]
  masqueradeSubnets: [169.254.0.0/17]
  namespaces: [{name: lnet, labels: {localnet: "yes"}}]
  pods:
  - {name: a, namespace: lnet, node: ovn-worker, networks: [physical]}
  - {name: b, namespace: lnet, node: ovn-worker2, networks: [physical]}
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: physical}
spec:
  namespaceSelector: {matchLabels: {localnet: "yes"}}
  network:
    topology: Localnet
    localnet:
      role: Secondary
      physicalNetworkName: physnet
      subnets: [192.0.2.0/24]
      excludeSubnets: [192.0.2.0/30]
`;

/** The fabric's end of a node's underlay veth (lab/layout.ts: `u<node id>`). */
const underlayLink = (node: string): string =>
  readState(lab.name)!.layout.nodes.find((n) => n.name === node)!.fabricUnderlayLink;

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

describe('a Localnet network between two pods on two nodes', () => {
  it('gives the pods addresses outside excludeSubnets and a localnet port on the physical network', () => {
    expect(podIPs(lab, 'lnet', 'a')).toEqual(['192.0.2.4']);
    expect(podIPs(lab, 'lnet', 'b')).toEqual(['192.0.2.5']);
    const options = nbctl(lab, 'get', 'Logical_Switch_Port', 'cluster_udn_physical_ovn_localnet_port', 'options');
    expect(options).toContain('network_name=physnet');
  });

  it("the pods reach each other, and their packets cross the physical network (the nodes' underlay links), not a tunnel", async () => {
    const [a] = podIPs(lab, 'lnet', 'a');
    const [b] = podIPs(lab, 'lnet', 'b');
    expect(await reaches(podNetns(lab, 'lnet', 'a'), b!, 20), `lnet/a -> ${b}`).toBe(true);
    let back = false;
    const links = [underlayLink('ovn-worker'), underlayLink('ovn-worker2')];
    const seen = await echoRequestsSeen(
      lab,
      links,
      async () => {
        back = await reaches(podNetns(lab, 'lnet', 'b'), a!);
      },
      { capture: 'ipv4-bridge-port', seconds: 8 },
    );
    expect(back).toBe(true);
    // the request leaves ovn-worker2 and enters ovn-worker as a plain IPv4 frame between the pods
    expect(seen[underlayLink('ovn-worker2')]).toContain(`${b} ${a}`);
    expect(seen[underlayLink('ovn-worker')]).toContain(`${b} ${a}`);
  });
});
