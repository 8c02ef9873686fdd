import { describe, expect, it } from 'vitest';
import { hashForOvn } from '../../provider/model/hash';
import { useInterconnectLab } from './ic-helpers';
import { ovnk, reaches } from './networks-helpers';

// Issue 26 points 5-7 in a per-node lab (one Northbound, Southbound and northd per node): a
// NoOverlay network, and two advertised networks (test/fixtures/transports.yaml), applied as the
// rows upstream writes (test/unit/fidelity/transports.test.ts names where each comes from).
const ic = useInterconnectLab('transports', 'transports.yaml', ['t-transports', 't-lab-transports']);
const ADVERTISED_SET = hashForOvn('default-network-controller:AdvertisedNetwork:advertised-network-subnets:v4');
const DROP_GROUP = hashForOvn('default-network-controller:AdvertisedNetwork:advertised-network-subnets');
const EXEMPTION_SET = hashForOvn(
  'cluster_udn_blue-network-controller:Cluster:no-overlay-snat-exemption:v4:cluster_udn_blue',
);
const zoneNb = (node: string) => ic.zones.find((z) => z.name === node)!.nb;
const nbctl = (node: string, ...args: string[]) => ic.ovn('ovn-nbctl', zoneNb(node), ...args).trim();

describe('NoOverlay and advertised networks in a per-node lab', () => {
  it('apply writes every zone, a second apply sends nothing and diff finds nothing', () => {
    const applied = ovnk('apply', '-f', ic.file, '--lab', ic.name, '-o', 'json');
    expect(applied.status, applied.stderr + applied.stdout).toBe(0);
    for (const zone of ic.zones) expect(applied.json.zones[zone.name].sent).toBe(true);
    const again = ovnk('apply', '-f', ic.file, '--lab', ic.name, '-o', 'json');
    for (const zone of ic.zones) expect(again.json.zones[zone.name]).toMatchObject({ sent: false, operations: 0 });
    const diff = ovnk('diff', '-f', ic.file, '--lab', ic.name);
    expect(diff.status, diff.stdout + diff.stderr).toBe(0);
  });

  it("every zone's northd takes the rows without a warning or error but upstream-faithful ones", () => {
    ic.syncZones('sb');
    const complaints = ic.northdComplaints();
    for (const zone of ic.zones) expect(complaints[zone.name], zone.name).toEqual([]);
  });

  it('the NoOverlay network has no transit switch and its exemption set holds its subnet and the node IP', () => {
    const switches = nbctl('ovn-worker', '--bare', '--columns=name', 'list', 'Logical_Switch').split(/\s+/);
    expect(switches).toContain('cluster_udn_green_transit_switch');
    expect(switches).not.toContain('cluster_udn_blue_transit_switch');
    const addresses = nbctl('ovn-worker', 'get', 'Address_Set', EXEMPTION_SET, 'addresses');
    expect(addresses).toMatch(/^\["10\.10\.0\.0\/16", "[0-9.]+"\]$/);
  });

  it("each zone's drop group holds the three advertised networks' switch ports and the set their subnets", () => {
    for (const zone of ic.zones) {
      const ports = nbctl(zone.name, '--bare', '--columns=ports', 'list', 'Port_Group', DROP_GROUP).split(/\s+/);
      const names = ports.map((uuid) => nbctl(zone.name, 'get', 'Logical_Switch_Port', uuid, 'name')).sort();
      // NoOverlay blue counts as advertised (util.IsPodNetworkAdvertisedAtNode)
      expect(names).toEqual([
        `stor-cluster_udn_blue_${zone.name}`,
        `stor-cluster_udn_green_${zone.name}`,
        'stotr-cluster_udn_red_ovn_layer2_switch',
      ]);
      expect(nbctl(zone.name, 'get', 'Address_Set', ADVERTISED_SET, 'addresses')).toBe(
        '["10.10.0.0/16", "10.20.0.0/16", "10.30.0.0/16"]',
      );
    }
  });

  it('pods of an advertised Geneve network still reach each other across zones (the pass ACL)', async () => {
    const [green] = ic.ipsOf('green', 'b');
    expect(await reaches(ic.netnsOf('green', 'a'), green!, 20)).toBe(true);
  });

  it('destroy removes every row of the owner, the shared sets and group included', () => {
    expect(ovnk('destroy', '-f', ic.file, '--lab', ic.name).status).toBe(0);
    for (const zone of ic.zones) {
      expect(nbctl(zone.name, '--bare', '--columns=name', 'list', 'Address_Set')).toBe('');
      expect(nbctl(zone.name, '--bare', '--columns=name', 'list', 'Port_Group')).toBe('');
    }
  });
});
