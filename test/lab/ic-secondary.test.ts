import { describe, expect, it } from 'vitest';
import { readState } from '../../lab';
import { podPort } from '../../provider/topology/names';
import { useInterconnectLab } from './ic-helpers';
import { ovnk, reaches } from './networks-helpers';

// Secondary networks in the per-node layout, proven with packets: pods of namespace `lab` (no
// primary network there) attach through `spec.pods[].networks` to a secondary Layer3 network
// (purple: its own host subnets, cluster router and transit switch, no gateway router) and to a
// secondary Layer2 one (teal: one switch, other zones' pods as remote ports with their tunnel
// ids), next to a Localnet network and a primary Layer3 one.
const ic = useInterconnectLab('ic-sec', 'networks-secondary.yaml', ['t-networks-sec', 't-ic-sec']);

/** Rows of `table` (by name) in one zone's Northbound. */
const namesIn = (nb: string, table: string): string[] =>
  ic.ovn('ovn-nbctl', nb, '--bare', '--columns=name', 'list', table).split('\n').filter(Boolean).sort();

describe('secondary networks across zones (one Northbound per node)', () => {
  it('apply writes every zone and plugs each lab pod on its node, on the network it names', () => {
    const applied = ovnk('apply', '-f', ic.file, '--lab', ic.name, '-o', 'json');
    expect(applied.status, applied.stderr + applied.stdout).toBe(0);
    for (const zone of ic.zones) expect(applied.json.zones[zone.name].sent).toBe(true);
    const plugged = readState(ic.name)!
      .pods.filter((p) => p.namespace === 'lab')
      .map((p) => `${p.name}@${p.node}:${p.ifaceId}`)
      .sort();
    expect(plugged).toEqual([
      `a@ovn-worker:${podPort('lab/purple', 'lab', 'a')}`,
      `b@ovn-worker2:${podPort('lab/purple', 'lab', 'b')}`,
      `c@ovn-worker:${podPort('lab/teal', 'lab', 'c')}`,
      `d@ovn-worker3:${podPort('lab/teal', 'lab', 'd')}`,
    ]);
  });

  it('gives the secondary networks no gateway router in any zone, only the primary one', () => {
    for (const zone of ic.zones) {
      const routers = namesIn(zone.nb, 'Logical_Router');
      expect(routers.filter((r) => r.startsWith('GR_'))).toEqual([`GR_cluster_udn_gold_${zone.name}`]);
      expect(routers).toContain('cluster_udn_purple_ovn_cluster_router');
      expect(namesIn(zone.nb, 'Logical_Switch')).toEqual(
        expect.arrayContaining(['cluster_udn_physical_ovn_localnet_switch', 'lab_teal_ovn_layer2_switch']),
      );
    }
  });

  it('secondary Layer3 pods on two zones reach each other over IPv4 and IPv6, through the transit switch', async () => {
    const [a4, a6] = ic.ipsOf('lab', 'a');
    const [b4, b6] = ic.ipsOf('lab', 'b');
    expect(a4).toMatch(/^10\.50\.0\./);
    expect(b4).toMatch(/^10\.50\.1\./);
    expect(await reaches(ic.netnsOf('lab', 'a'), b4!, 20), `lab/a -> ${b4}`).toBe(true);
    expect(await reaches(ic.netnsOf('lab', 'b'), a4!), `lab/b -> ${a4}`).toBe(true);
    expect(await reaches(ic.netnsOf('lab', 'a'), b6!, 20), `lab/a -> ${b6}`).toBe(true);
    expect(a6).toContain(':');
  });

  it('secondary Layer2 pods on two zones reach each other on the one segment', async () => {
    const [c4] = ic.ipsOf('lab', 'c');
    const [d4] = ic.ipsOf('lab', 'd');
    expect([c4, d4]).toEqual(['10.60.0.1', '10.60.0.2']);
    expect(await reaches(ic.netnsOf('lab', 'c'), d4!, 20), `lab/c -> ${d4}`).toBe(true);
    expect(await reaches(ic.netnsOf('lab', 'd'), c4!), `lab/d -> ${c4}`).toBe(true);
  });

  it("every zone's northd logs no warning or error about the rows but upstream-faithful ones", () => {
    ic.syncZones('sb');
    const complaints = ic.northdComplaints();
    for (const zone of ic.zones) expect(complaints[zone.name], zone.name).toEqual([]);
  });

  it('a second apply sends nothing to any zone', () => {
    const again = ovnk('apply', '-f', ic.file, '--lab', ic.name, '-o', 'json');
    expect(again.status, again.stderr).toBe(0);
    for (const zone of ic.zones) expect(again.json.zones[zone.name]).toMatchObject({ sent: false, operations: 0 });
  });
});
