/**
 * A Localnet network with packets (issue 26, done-when: the lab shows packets for a secondary
 * network between two pods; ic-secondary.test.ts does Layer3 and Layer2). Two pods on different
 * nodes attach to a Localnet CUDN whose `physicalNetworkName` is the lab's bridge mapping
 * (`physnet:breth0`): upstream's localnet switch (localnet_user_defined_network_controller.go)
 * joins them through its localnet port, so their packets cross the physical network (breth0, the
 * fabric), not a Geneve tunnel: the echo requests are seen on the sending node's underlay link in
 * the fabric, from pod to pod.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readState } from '../../lab';
import '../setup/lab';
import { fabricOf } from './egress-helpers';
import { nbctl, ovnk, podIPs, podNetns, reaches } from './networks-helpers';

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

/**
 * `source destination` of the IPv4 echo requests each link of the fabric sees while `during` runs.
 * ETH_P_ALL: a socket for one protocol (egress-helpers.ts' ETH_P_IP one) never sees frames that a
 * bridge port hands to its bridge, and the nodes' underlay links are ports of the fabric's br0.
 */
const captureAll = `
import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.ntohs(3))
s.bind((sys.argv[1], 0))
s.settimeout(0.2)
print('ready', flush=True)
end = time.time() + float(sys.argv[2])
while time.time() < end:
    try:
        f = s.recv(2048)
    except socket.timeout:
        continue
    ip = f[14:]
    if f[12:14] == b'\\x08\\x00' and len(ip) > 20 and ip[9] == 1 and ip[(ip[0] & 15) * 4] == 8:
        print(socket.inet_ntoa(ip[12:16]), socket.inet_ntoa(ip[16:20]), flush=True)
`;

async function echoRequestsOn(links: string[], during: () => Promise<void>): Promise<Record<string, string[]>> {
  const captures = links.map((link) => {
    const child = spawn('ip', ['netns', 'exec', fabricOf(lab), 'python3', '-c', captureAll, link, '8']);
    let out = '';
    const ready = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready')) resolve();
      }),
    );
    const done = new Promise<void>((resolve) => child.on('close', () => resolve()));
    return { child, ready, done, out: () => out };
  });
  await Promise.all(captures.map((c) => c.ready));
  await during();
  await new Promise((r) => setTimeout(r, 500));
  for (const c of captures) c.child.kill();
  await Promise.all(captures.map((c) => c.done));
  return Object.fromEntries(
    links.map((link, i) => [
      link,
      captures[i]!.out()
        .split('\n')
        .filter((l) => l !== '' && l !== 'ready'),
    ]),
  );
}

beforeAll(() => {
  writeFileSync(file, stack);
  const applied = run('apply');
  expect(applied.status, applied.stderr).toBe(0);
  nbctl(lab, '--wait=hv', '--timeout=30', 'sync');
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
    const seen = await echoRequestsOn([underlayLink('ovn-worker'), underlayLink('ovn-worker2')], async () => {
      back = await reaches(podNetns(lab, 'lnet', 'b'), a!);
    });
    expect(back).toBe(true);
    // the request leaves ovn-worker2 and enters ovn-worker as a plain IPv4 frame between the pods
    expect(seen[underlayLink('ovn-worker2')]).toContain(`${b} ${a}`);
    expect(seen[underlayLink('ovn-worker')]).toContain(`${b} ${a}`);
  });
});
