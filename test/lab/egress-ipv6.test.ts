/**
 * IPv6 egress with packets (issue 26 point 11): the lab's IPv6 underlay (breth0 holds
 * fd19:<index>::<10 + id>/64 beside the IPv4 encap address, the fabric fd19:<index>::1, the node's
 * IPv6 default route through it; lab/node.ts, lab/central.ts) carries a dual-stack CUDN without
 * Uplinks out of breth0. The pod's IPv6 echo requests leave the node from its IPv6 address (the
 * gateway router SNATs them to the network's IPv6 masquerade address, commonFlows' IPv6 flow on
 * breth0 SNATs that to the node's in zone 64000) and the answers come back through table 1 to the
 * network's patch port. The file's nodes give both families (the lab's Inventory is IPv4 unless a
 * file says otherwise). An Uplink object in the file makes `apply` write the gateway flows (it
 * writes none for a file without Uplinks).
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import '../setup/lab';
import { ownerCookie } from '../../provider/uplink/flows';
import { echoRequestsSeen, ourFlows } from './egress-helpers';
import { ovnk, podNetns, syncChassis } from './networks-helpers';
import { closeNodes } from './uplink-helpers';

const lab = inject('lab');
const worker = () => lab.nodes.find((n) => n.name === 'ovn-worker')!;
const fabric6 = () => worker().gatewayNextHops6[0]!;
const node6 = () => worker().nodeIPs6[0]!.split('/')[0]!;
const file = path.join(tmpdir(), `ovnk-egress-ipv6-${process.pid}.yaml`);
const run = (command: string) => ovnk(command, '-f', file, '--lab', lab.name, '-o', 'json');

function stack(): string {
  const nodes = lab.nodes
    .map(
      (n) =>
        `  - {name: ${n.name}, nodeIPs: [${[...n.nodeIPs, ...n.nodeIPs6].map((a) => `"${a}"`).join(', ')}], ` +
        `gatewayNextHops: [${[...n.gatewayNextHops, ...n.gatewayNextHops6].map((a) => `"${a}"`).join(', ')}]}`,
    )
    .join('\n');
  return `apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: egress-ipv6}
spec:
  ipFamilies: [IPv4, IPv6]
  clusterSubnets: [10.128.0.0/14, "fd00:10:128::/48"]
  serviceCIDRs: [172.16.1.0/24, "fd00:172:16::/112"]
  masqueradeSubnets: [169.254.0.0/17, "fd69::/112"]
  namespaces: [{name: egress6-green, labels: {egress6: green}}]
  pods: [{name: a, namespace: egress6-green, node: ovn-worker}]
  nodes:
${nodes}
---
apiVersion: k8s.ovn.org/v1alpha1
kind: Uplink
metadata: {name: egress6-red}
spec:
  nodeConfigs:
  - {type: OVSBridge, nodeSelector: {}, hostInterfaceName: red0}
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: egress6-green}
spec:
  namespaceSelector: {matchLabels: {egress6: green}}
  network:
    topology: Layer3
    layer3: {role: Primary, subnets: [{cidr: 10.64.0.0/16}, {cidr: "fd64::/60", hostSubnet: 64}]}
`;
}

/** Answered pings of `count` from the green pod to `address` (a few tries: ND settles first). */
function pings6(address: string, count = 3): number {
  const netns = podNetns(lab, 'egress6-green', 'a');
  let answered = 0;
  for (let attempt = 0; attempt < 4 && answered < count; attempt++) {
    const out = spawnSync('ip', ['netns', 'exec', netns, 'ping', '-6', '-c', String(count), '-W', '1', address], {
      encoding: 'utf8',
    }).stdout;
    answered = Number(/(\d+) received/.exec(out)?.[1] ?? 0);
  }
  return answered;
}

beforeAll(() => {
  writeFileSync(file, stack());
  const applied = run('apply');
  expect(applied.status, applied.stderr).toBe(0);
  syncChassis(lab);
});

afterAll(async () => {
  ovnk('destroy', '-f', file, '--lab', lab.name);
  rmSync(file, { force: true });
  await closeNodes();
});

describe('IPv6 egress of a dual-stack network through breth0', () => {
  it("the green pod on ovn-worker reaches the fabric's IPv6 address beyond its gateway, from the node's IPv6 address", async () => {
    let answered = 0;
    const seen = await echoRequestsSeen(
      lab,
      ['br0'],
      async () => {
        answered = pings6(fabric6());
      },
      { capture: 'ipv6', seconds: 8 },
    );
    expect(answered).toBe(3);
    expect(new Set(seen.br0)).toEqual(new Set([`${node6()} ${fabric6()}`]));
  });

  it("breth0 carries the network's IPv6 SNAT and reply flows with this owner's cookie, and a second apply writes nothing", async () => {
    const flows = await ourFlows(worker(), 'breth0', `cookie=${ownerCookie('egress-ipv6')}/-1`);
    expect(flows.filter((f) => /ipv6,.*ipv6_src=fd69::/.test(f) && f.includes(`nat(src=${node6()})`))).toHaveLength(1);
    expect(flows.filter((f) => /table=1,.*ct_state=\+est\+trk.*ipv6/.test(f))).toHaveLength(1);
    const again = run('apply');
    expect(again.status, again.stderr).toBe(0);
    const written = Object.values(again.json.uplinkFlows as Record<string, { bridges: { written: boolean }[] }>)
      .flatMap((n) => n.bridges)
      .filter((b) => b.written);
    expect(written).toEqual([]);
    expect(run('diff').status).toBe(0);
  });
});
