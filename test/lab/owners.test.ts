import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useInterconnectLab } from './ic-helpers';
import { ovnk, reaches } from './networks-helpers';

// Issue 15 point 4 in a per-node lab (one Northbound, Southbound and northd per node): two owners
// (two files), each with a primary Layer2 network and pods on two nodes. Allocating alone, both
// took network id 1 (the same Layer2 switch key and the same masquerade IPs on their gateway
// routers) and the same first dynamic key for their transit routers; each zone's northd then gave
// the requested key to one datapath only, and the other's traffic between zones had no matching
// datapath. Each owner now takes the other's allocations, stored in the Northbound, as taken.
const ic = useInterconnectLab('owners', 'networks-layer2.yaml', ['t-networks-l2', 't-owners-unused']);
const owners = [
  { owner: 't-owners-a', network: 'ocean', cidr: '10.51.0.0/24' },
  { owner: 't-owners-b', network: 'forest', cidr: '10.52.0.0/24' },
];

function fileOf({ owner, network, cidr }: (typeof owners)[number]): string {
  const file = path.join(path.dirname(ic.file), `${owner}.yaml`);
  writeFileSync(
    file,
    `apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: ${owner}}
spec:
  namespaces: [{name: ${network}, labels: {network: ${network}}}]
  pods:
  - {name: a, namespace: ${network}, node: ovn-worker}
  - {name: b, namespace: ${network}, node: ovn-worker2}
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: ${network}}
spec:
  namespaceSelector: {matchLabels: {network: ${network}}}
  network: {topology: Layer2, layer2: {role: Primary, subnets: [${cidr}]}}
`,
  );
  return file;
}

const bare = (text: string) => text.trim().replace(/^"|"$/g, '');

/** What a zone's Northbound asks for a datapath, and what its northd gave it. */
function tunnelKey(zone: (typeof ic.zones)[number], table: string, name: string) {
  const column = table === 'Logical_Router' ? 'options' : 'other_config';
  return {
    requested: bare(ic.ovn('ovn-nbctl', zone.nb, 'get', table, name, `${column}:requested-tnl-key`)),
    given: bare(
      ic.ovn(
        'ovn-sbctl',
        zone.sb,
        '--bare',
        '--columns=tunnel_key',
        'find',
        'Datapath_Binding',
        `external_ids:name=${name}`,
      ),
    ),
  };
}

describe('two owners in a per-node lab, each with a primary Layer2 network', () => {
  it('both apply, one after the other', () => {
    for (const file of owners.map(fileOf)) {
      const applied = ovnk('apply', '-f', file, '--lab', ic.name, '-o', 'json');
      expect(applied.status, applied.stderr + applied.stdout).toBe(0);
    }
    ic.syncZones('sb');
  });

  it('in every zone, their datapaths request keys no other owner holds, and northd gives them as requested', () => {
    for (const zone of ic.zones) {
      const keys = owners.flatMap(({ network }) => [
        tunnelKey(zone, 'Logical_Switch', `cluster_udn_${network}_ovn_layer2_switch`),
        tunnelKey(zone, 'Logical_Router', `cluster_udn_${network}_transit_router`),
      ]);
      for (const key of keys) expect(key.given, zone.name).toBe(key.requested);
      expect(new Set(keys.map((k) => k.requested)).size, zone.name).toBe(4);
    }
    expect(ic.northdComplaints()).toEqual(Object.fromEntries(ic.zones.map((z) => [z.name, []])));
  });

  it("put different masquerade IPs on their gateway routers' SNATs", () => {
    const zone = ic.zones[0]!;
    const snat = (network: string) =>
      ic
        .ovn(
          'ovn-nbctl',
          zone.nb,
          '--bare',
          '--columns=external_ip',
          'find',
          'NAT',
          `external_ids:"k8s.ovn.org/network"=cluster_udn_${network}`,
        )
        .split(/\s+/)
        .filter(Boolean);
    const [ocean, forest] = [snat('ocean'), snat('forest')];
    expect(ocean.length).toBeGreaterThan(0);
    expect(forest.filter((ip) => ocean.includes(ip))).toEqual([]);
  });

  it("carry each owner's pods between zones", async () => {
    for (const { network } of owners) {
      const [b4] = ic.ipsOf(network, 'b');
      expect(await reaches(ic.netnsOf(network, 'a'), b4!, 20), `${network}/a -> ${b4}`).toBe(true);
    }
  });

  it("destroying one owner leaves the other's pods reaching each other, until its own destroy", async () => {
    const destroy = (owner: string) =>
      ovnk('destroy', '-f', path.join(path.dirname(ic.file), `${owner}.yaml`), '--lab', ic.name);
    expect(destroy('t-owners-a').status).toBe(0);
    const [b4] = ic.ipsOf('forest', 'b');
    expect(await reaches(ic.netnsOf('forest', 'a'), b4!, 20)).toBe(true);
    expect(destroy('t-owners-b').status).toBe(0);
  });
});
