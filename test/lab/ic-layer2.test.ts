import { describe, expect, it } from 'vitest';
import { readState } from '../../lab';
import { podPort } from '../../provider/topology/names';
import { useInterconnectLab } from './ic-helpers';
import { ovnk, reaches } from './networks-helpers';

// The Layer2 transit-router topology in the per-node layout, proven with packets: every zone
// renders every green pod (remote ones as `remote` ports) with the pod's cluster-wide tunnel id
// as requested-tnl-key, so each pod has the same port key in every zone's Southbound.
const ic = useInterconnectLab('ic-l2', 'networks-layer2.yaml', ['t-networks-l2', 't-ic-l2']);
const greenPort = (pod: string) => podPort('green/green', 'green', pod);

/** The Port_Binding tunnel_key of each green pod port in one zone's Southbound. */
function podKeys(sb: string): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const pod of ['a', 'b', 'c'])
    keys[pod] = ic
      .ovn('ovn-sbctl', sb, '--bare', '--columns=tunnel_key', 'find', 'Port_Binding', `logical_port=${greenPort(pod)}`)
      .trim();
  return keys;
}

describe('a primary Layer2 network across zones (one Northbound per node)', () => {
  it('apply writes every zone and plugs the pods on their nodes', () => {
    const applied = ovnk('apply', '-f', ic.file, '--lab', ic.name, '-o', 'json');
    expect(applied.status, applied.stderr + applied.stdout).toBe(0);
    for (const zone of ic.zones) expect(applied.json.zones[zone.name].sent).toBe(true);
    const green = readState(ic.name)!
      .pods.filter((p) => p.namespace === 'green')
      .map((p) => `${p.name}@${p.node}`)
      .sort();
    expect(green).toEqual(['a@ovn-worker', 'b@ovn-worker2', 'c@ovn-worker3']);
  });

  it('every zone binds each green pod port to the same tunnel key', async () => {
    ic.syncZones('sb');
    const [first, ...others] = ic.zones.map((z) => podKeys(z.sb));
    expect(first).toEqual({ a: '1', b: '2', c: '3' });
    for (const keys of others) expect(keys).toEqual(first);
  });

  it('green pods on two different zones reach each other, both ways', async () => {
    const [a4] = ic.ipsOf('green', 'a');
    const [b4] = ic.ipsOf('green', 'b');
    expect(await reaches(ic.netnsOf('green', 'a'), b4!, 20), `green/a -> ${b4}`).toBe(true);
    expect(await reaches(ic.netnsOf('green', 'b'), a4!), `green/b -> ${a4}`).toBe(true);
  });

  it('a green pod reaches one on a third zone over IPv6', async () => {
    const c6 = ic.ipsOf('green', 'c')[1]!;
    expect(c6).toContain(':');
    expect(await reaches(ic.netnsOf('green', 'a'), c6, 20), `green/a -> ${c6}`).toBe(true);
  });

  it("every zone's northd logs no warning or error about the rows but upstream-faithful ones", () => {
    ic.syncZones('sb');
    const complaints = ic.northdComplaints();
    expect(Object.keys(complaints)).toEqual(ic.zones.map((z) => z.name));
    for (const zone of ic.zones) expect(complaints[zone.name], zone.name).toEqual([]);
  });

  it('a second apply sends nothing to any zone', () => {
    const again = ovnk('apply', '-f', ic.file, '--lab', ic.name, '-o', 'json');
    expect(again.status, again.stderr).toBe(0);
    for (const zone of ic.zones) expect(again.json.zones[zone.name]).toMatchObject({ sent: false, operations: 0 });
  });
});
