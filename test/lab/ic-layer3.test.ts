import { describe, expect, it } from 'vitest';
import { readState } from '../../lab';
import { useInterconnectLab } from './ic-helpers';
import { ovnk, reaches } from './networks-helpers';

// The per-node layout proven with packets: a trixie lab of its own whose three nodes are each an
// availability zone with its own Northbound, Southbound and northd; `ovnk apply` writes each
// zone's rows (local node, remote transit-switch ports bound to the other nodes' chassis).
const ic = useInterconnectLab('ic-l3', 'networks-layer3.yaml', ['t-networks-l3', 't-ic-l3']);
const lab = () => readState(ic.name)!;
const ipv4Of = (ns: string, pod: string) => ic.ipsOf(ns, pod)[0]!;

describe('the per-node layout in a lab with one Northbound per node', () => {
  it('every zone is its own Northbound, named after its node', () => {
    expect(ic.zones.map((z) => z.name)).toEqual(['ovn-worker', 'ovn-worker2', 'ovn-worker3']);
    expect(new Set(ic.zones.map((z) => z.nb)).size).toBe(3);
  });

  it('apply writes every zone and plugs the pods on their nodes', () => {
    const applied = ovnk('apply', '-f', ic.file, '--lab', ic.name, '-o', 'json');
    expect(applied.status, applied.stderr + applied.stdout).toBe(0);
    for (const zone of ic.zones) expect(applied.json.zones[zone.name].sent).toBe(true);
    expect(
      lab()
        .pods.map((p) => `${p.namespace}/${p.name}@${p.node}`)
        .sort(),
    ).toEqual(['blue/a@ovn-worker', 'blue/b@ovn-worker2', 'red/a@ovn-worker2', 'red/b@ovn-worker3']);
  });

  it('a Layer3 pod reaches a pod of its network on another node (another zone), both ways', async () => {
    expect(await reaches(ic.netnsOf('blue', 'a'), ipv4Of('blue', 'b'), 20)).toBe(true);
    expect(await reaches(ic.netnsOf('blue', 'b'), ipv4Of('blue', 'a'))).toBe(true);
    expect(await reaches(ic.netnsOf('red', 'a'), ipv4Of('red', 'b'), 20)).toBe(true);
  });

  it("every zone's northd logs no warning or error about the rows but upstream-faithful ones", () => {
    ic.syncZones('sb');
    const complaints = ic.northdComplaints();
    expect(Object.keys(complaints)).toEqual(ic.zones.map((z) => z.name));
    for (const zone of ic.zones) expect(complaints[zone.name], zone.name).toEqual([]);
  });

  it('a pod does not reach a pod of the other network', async () => {
    expect(await reaches(ic.netnsOf('blue', 'b'), ipv4Of('red', 'b'), 3)).toBe(false);
  });
});
