import { describe, expect, inject, it } from 'vitest';
import { readState } from '../../lab';
import { nbConnection, destroyZone } from '../../provider/runtime/cli';
import '../setup/lab';
import {
  appliedForTheseTests,
  fixture,
  nbctl,
  ovnk,
  ownedRowCounts,
  podIPs,
  podNetns,
  reaches,
  syncChassis,
} from './networks-helpers';

const lab = inject('lab');
const file = fixture('networks-layer3.yaml');
const owner = 't-networks-l3';
const foreignSwitch = 'cluster_udn_blue_ovn-worker';
let foreignUuid = '';

appliedForTheseTests(lab, file, () => {
  if (foreignUuid) nbctl(lab, '--if-exists', 'destroy', 'Logical_Switch', foreignUuid);
});

describe('two primary Layer3 networks over three nodes', () => {
  it('every pod reaches the other pod of its network over IPv4, both ways', async () => {
    for (const [ns, x, y] of [
      ['blue', 'a', 'b'],
      ['red', 'a', 'b'],
    ] as const) {
      expect(await reaches(podNetns(lab, ns, x), podIPs(lab, ns, y)[0]!), `${ns}/${x} -> ${ns}/${y}`).toBe(true);
      expect(await reaches(podNetns(lab, ns, y), podIPs(lab, ns, x)[0]!), `${ns}/${y} -> ${ns}/${x}`).toBe(true);
    }
  });

  it('pods of the dual-stack network reach each other over IPv6 too', async () => {
    const [a6, b6] = [podIPs(lab, 'blue', 'a')[1]!, podIPs(lab, 'blue', 'b')[1]!];
    expect(a6).toContain(':');
    expect(await reaches(podNetns(lab, 'blue', 'a'), b6)).toBe(true);
    expect(await reaches(podNetns(lab, 'blue', 'b'), a6)).toBe(true);
  });

  it('no pod reaches a pod of the other network', async () => {
    expect(await reaches(podNetns(lab, 'red', 'a'), podIPs(lab, 'red', 'b')[0]!)).toBe(true);
    expect(await reaches(podNetns(lab, 'blue', 'a'), podIPs(lab, 'red', 'a')[0]!, 2)).toBe(false);
    expect(await reaches(podNetns(lab, 'red', 'b'), podIPs(lab, 'blue', 'b')[0]!, 2)).toBe(false);
  });

  it('a second apply sends nothing and diff finds no drift', () => {
    const again = ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(again.status, again.stderr).toBe(0);
    expect(again.json.zones.central).toMatchObject({ sent: false, operations: 0, summary: [] });
    expect(again.json.pods).toEqual({ plugged: [], unplugged: [] });
    expect(ovnk('diff', '-f', file, '--lab', lab.name).status).toBe(0);
  });

  it('a hand change to one of our rows shows in diff, and apply repairs it', async () => {
    const port = 'rtos-cluster_udn_blue_ovn-worker2';
    const mac = nbctl(lab, 'get', 'Logical_Router_Port', port, 'mac').trim();
    nbctl(lab, 'set', 'Logical_Router_Port', port, 'mac="0a:00:00:00:00:99"');
    const drift = ovnk('diff', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(drift.status).toBe(2);
    expect(drift.json.zones.central.drift).toEqual([
      `changed: Logical_Router_Port "${port}": mac: "0a:00:00:00:00:99" -> ${mac}`,
    ]);
    const repaired = ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(repaired.json.zones.central.sent).toBe(true);
    expect(nbctl(lab, 'get', 'Logical_Router_Port', port, 'mac').trim()).toBe(mac);
    expect(ovnk('diff', '-f', file, '--lab', lab.name).status).toBe(0);
    syncChassis(lab);
    expect(await reaches(podNetns(lab, 'blue', 'a'), podIPs(lab, 'blue', 'b')[0]!)).toBe(true);
  });

  it('a row without our marker, identical to one of ours, is refused by apply and untouched by apply and destroy', async () => {
    const externalIds = nbctl(
      lab,
      '--columns=external_ids',
      '--bare',
      'find',
      'Logical_Switch',
      `name=${foreignSwitch}`,
    ).trim();
    expect(externalIds).toContain(`ovnk.io/owner=${owner}`);
    foreignUuid = nbctl(
      lab,
      'create',
      'Logical_Switch',
      `name=${foreignSwitch}`,
      'external_ids:k8s.ovn.org/network=cluster_udn_blue',
      'external_ids:k8s.ovn.org/topology=layer3',
    ).trim();
    const before = nbctl(lab, 'list', 'Logical_Switch', foreignUuid);
    // a planned network's row without our marker is upstream's (runtime/adoptUpstream.ts): the apply
    // refuses before writing, rather than render a second switch of that name beside it
    const refused = ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(refused.status, refused.stdout).toBe(1);
    expect(refused.json.zones.central).toMatchObject({
      exitCode: 1,
      error: expect.stringContaining('spec.adoptUpstreamRows: true'),
    });
    expect(nbctl(lab, 'list', 'Logical_Switch', foreignUuid)).toBe(before);
    const db = await nbConnection(lab.nb);
    await destroyZone(db, 'central', owner);
    expect(nbctl(lab, 'list', 'Logical_Switch', foreignUuid)).toBe(before);
    // put our rows back for the next test, once the other writer's switch is gone
    nbctl(lab, 'destroy', 'Logical_Switch', foreignUuid);
    expect(ovnk('apply', '-f', file, '--lab', lab.name).status).toBe(0);
  });

  it('destroy leaves no row of this owner and the pods lose connectivity, then unplugs them', async () => {
    syncChassis(lab);
    const [from, to] = [podNetns(lab, 'blue', 'a'), podIPs(lab, 'blue', 'b')[0]!];
    expect(await reaches(from, to)).toBe(true);
    expect(Object.keys(await ownedRowCounts(lab, owner)).length).toBeGreaterThan(5);
    const db = await nbConnection(lab.nb);
    const result = await destroyZone(db, 'central', owner);
    expect(result.sent).toBe(true);
    expect(await ownedRowCounts(lab, owner)).toEqual({});
    expect(nbctl(lab, 'get', 'NB_Global', '.', 'external_ids')).not.toContain(`ovnk.io/state/${owner}`);
    syncChassis(lab);
    expect(await reaches(from, to, 2)).toBe(false);
    const destroyed = ovnk('destroy', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(destroyed.status, destroyed.stderr).toBe(0);
    expect(destroyed.json.zones.central.sent).toBe(false);
    expect(destroyed.json.pods.unplugged).toEqual(['blue/a', 'blue/b', 'red/a', 'red/b']);
    expect(readState(lab.name)!.pods.filter((p) => p.namespace === 'blue' || p.namespace === 'red')).toEqual([]);
  });
});
