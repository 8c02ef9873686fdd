import { describe, expect, inject, it } from 'vitest';
import { readState } from '../../lab';
import { destroyZone, nbConnection } from '../../provider/runtime/cli';
import { macFromIP } from '../../provider/topology/mac';
import '../setup/lab';
import {
  appliedForTheseTests,
  fixture,
  nbctl,
  neighbourMac,
  ovnk,
  ownedRowCounts,
  podIPs,
  podNetns,
  reaches,
  syncChassis,
} from './networks-helpers';

const lab = inject('lab');
const file = fixture('networks-layer2.yaml');
const owner = 't-networks-l2';

appliedForTheseTests(lab, file);

describe('a primary Layer2 network with the transit router over three nodes', () => {
  it('pods on different nodes reach each other over IPv4 and IPv6', async () => {
    for (const [x, y] of [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'a'],
    ] as const) {
      const [v4, v6] = podIPs(lab, 'green', y);
      expect(v6).toContain(':');
      expect(await reaches(podNetns(lab, 'green', x), v4!), `green/${x} -> ${v4}`).toBe(true);
      expect(await reaches(podNetns(lab, 'green', x), v6!), `green/${x} -> ${v6}`).toBe(true);
    }
  });

  it('pods on two different nodes resolve the default gateway to the same address and MAC', async () => {
    const gateways = ['a', 'b'].map((pod) =>
      readState(lab.name)!.pods.find((p) => p.namespace === 'green' && p.name === pod)!,
    );
    expect(gateways.map((p) => p.node)).toEqual(['ovn-worker', 'ovn-worker2']);
    for (const pod of ['a', 'b']) expect(await reaches(podNetns(lab, 'green', pod), '10.30.0.1')).toBe(true);
    const macs = ['a', 'b'].map((pod) => neighbourMac(podNetns(lab, 'green', pod), '10.30.0.1'));
    expect(macs[0]).toBe(macFromIP('10.30.0.1'));
    expect(macs[1]).toBe(macs[0]);
  });

  it('Layer2 and Layer3 networks side by side stay isolated', async () => {
    expect(await reaches(podNetns(lab, 'gold', 'a'), podIPs(lab, 'gold', 'b')[0]!)).toBe(true);
    expect(await reaches(podNetns(lab, 'green', 'a'), podIPs(lab, 'gold', 'b')[0]!, 2)).toBe(false);
    expect(await reaches(podNetns(lab, 'gold', 'b'), podIPs(lab, 'green', 'c')[0]!, 2)).toBe(false);
  });

  it('a second apply sends nothing; a hand change shows in diff and apply repairs it', () => {
    expect(ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json').json.zones.central).toMatchObject({
      sent: false,
      operations: 0,
    });
    const port = 'trtos-cluster_udn_green_ovn_layer2_switch';
    const networks = nbctl(lab, 'get', 'Logical_Router_Port', port, 'networks').trim();
    nbctl(lab, 'set', 'Logical_Router_Port', port, 'networks="10.30.0.9/24"');
    const drift = ovnk('diff', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(drift.status).toBe(2);
    expect(drift.json.zones.central.drift).toHaveLength(1);
    expect(drift.json.zones.central.drift[0]).toMatch(
      new RegExp(`^changed: Logical_Router_Port "${port}": networks: `),
    );
    expect(ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json').json.zones.central.sent).toBe(true);
    expect(nbctl(lab, 'get', 'Logical_Router_Port', port, 'networks').trim()).toBe(networks);
    expect(ovnk('diff', '-f', file, '--lab', lab.name).status).toBe(0);
  });

  it('destroy leaves no row of this owner and the pods lose connectivity, then unplugs them', async () => {
    syncChassis(lab);
    const [from, to] = [podNetns(lab, 'green', 'a'), podIPs(lab, 'green', 'b')[0]!];
    expect(await reaches(from, to)).toBe(true);
    await destroyZone(await nbConnection(lab.nb), 'central', owner);
    expect(await ownedRowCounts(lab, owner)).toEqual({});
    syncChassis(lab);
    expect(await reaches(from, to, 2)).toBe(false);
    const destroyed = ovnk('destroy', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(destroyed.status, destroyed.stderr).toBe(0);
    expect(destroyed.json.pods.unplugged).toEqual(['gold/a', 'gold/b', 'green/a', 'green/b', 'green/c']);
  });
});
