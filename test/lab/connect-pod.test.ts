import { beforeAll, describe, expect, inject, it } from 'vitest';
import { fileTarget, planFor } from '../../cli/commands/fileTarget';
import { planText } from '../../cli/commands/planText';
import { releaseZones } from '../../cli/commands/zoneRuns';
import '../setup/lab';
import {
  misbehaving,
  northdComplaints,
  northdLog,
  probes,
  sbctl,
  stack,
  storedState,
  sync,
  variant,
} from './connect-helpers';
import { appliedForTheseTests, nbctl, ovnk, ownedRowCounts, podIPs } from './networks-helpers';

const lab = inject('lab');
const file = stack('colored-enterprise.yaml');
const owner = 'colored-enterprise';
const router = 'connect_router_colored-enterprise';
const pods = ['blue/a', 'blue/b', 'green/a', 'green/b', 'yellow/a', 'yellow/b'];
let logStart = 0;

beforeAll(() => {
  logStart = northdLog(lab).length;
});
appliedForTheseTests(lab, file);

/** `text` as a regular expression that matches it literally. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const across = (from: string[], to: string[]) =>
  probes(lab, [...from, ...to]).filter((p) => from.includes(p.from) !== from.includes(p.to));

describe('colored-enterprise (PodNetwork) applied to the lab', () => {
  it('every pod of blue, green and yellow reaches every pod of the other two, IPv4 and IPv6, both directions', async () => {
    const list = probes(lab, pods).filter((p) => p.from.split('/')[0] !== p.to.split('/')[0]);
    expect(list.length).toBe(6 * 4 * 2);
    expect(await misbehaving(lab, list, true)).toEqual([]);
  });

  it('orange, selected by no connect, reaches none of them and none of them reaches it; its own pods reach each other', async () => {
    expect(await misbehaving(lab, across(['orange/a', 'orange/b'], ['blue/b', 'green/a', 'yellow/a']), false)).toEqual(
      [],
    );
    expect(await misbehaving(lab, probes(lab, ['orange/a', 'orange/b']), true)).toEqual([]);
  });

  it("plan --lab -o text shows the allocation table apply used: networks, connect slices, and the lab's nodes with ids and host subnets", () => {
    const planned = ovnk('plan', '-f', file, '--lab', lab.name, '-o', 'text');
    expect(planned.status, planned.stderr).toBe(0);
    const stored = storedState(lab, owner).allocation.connects['colored-enterprise'].l2.owners;
    expect(Object.keys(stored).length).toBe(1);
    for (const [slice, subnets] of Object.entries(stored) as [string, string[]][])
      expect(planned.stdout).toMatch(
        new RegExp(`\\n\\S+ +${slice} +yellow_yellow-network +${escaped(subnets.join(', '))} `),
      );
    expect(planned.stdout).toMatch(/\n\S+ +layer3_\d+ +cluster_udn_green-network +192\.168\.\d+\.0\/24, fd01::/);
    expect(planned.stdout).toMatch(/\ncluster_udn_blue-network +\d+ +Layer3 +Primary /);
    for (const node of lab.nodes)
      expect(planned.stdout).toMatch(
        new RegExp(`\\n${node.name} +\\d+ +cluster_udn_blue-network +103\\.103\\.\\d+\\.0/24`),
      );
    expect(planned.stdout).toMatch(/\ncentral +\d+ +ACL \d+, /);
  });

  it('a second apply sends nothing and diff finds no drift', () => {
    const again = ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(again.json.zones.central).toMatchObject({ sent: false, operations: 0 });
    expect(ovnk('diff', '-f', file, '--lab', lab.name).status).toBe(0);
  });

  it('northd binds every connect-router port with the tunnel key we requested and logs no warning or error', () => {
    const all = JSON.parse(nbctl(lab, '--format=json', '--columns=name,options', 'list', 'Logical_Router_Port'))
      .data as [string, ['map', [string, string][]]][];
    const ports = all.filter(([name]) => name.startsWith('crtor-colored-enterprise_'));
    expect(ports.length).toBe(2 * 3 + 1);
    for (const [name, [, options]] of ports) {
      const requested = Object.fromEntries(options)['requested-tnl-key'];
      expect(requested, name).toMatch(/^\d+$/);
      expect(
        sbctl(lab, '--bare', '--columns=tunnel_key', 'find', 'Port_Binding', `logical_port=${name}`).trim(),
        name,
      ).toBe(requested);
    }
    const routerKey = nbctl(lab, 'get', 'Logical_Router', router, 'options:requested-tnl-key').replace(/"/g, '').trim();
    const datapath = sbctl(
      lab,
      '--bare',
      '--columns=tunnel_key',
      'find',
      'Datapath_Binding',
      `external_ids:name=${router}`,
    ).trim();
    expect(datapath).toBe(routerKey);
    // only upstream-faithful warnings are allowed (connect-helpers.ts)
    expect(northdComplaints(northdLog(lab, logStart))).toEqual([]);
  });

  it('a deleted connect-router route and a hand-changed policy show in diff, and apply repairs both', async () => {
    const greenB = podIPs(lab, 'green', 'b')[0]!; // host subnet 104.104.2.0/24 on ovn-worker3
    const route = nbctl(
      lab,
      '--bare',
      '--columns=_uuid',
      'find',
      'Logical_Router_Static_Route',
      'ip_prefix="104.104.2.0/24"',
      'external_ids:"k8s.ovn.org/name"=colored-enterprise',
    ).trim();
    const routeId = nbctl(lab, 'get', 'Logical_Router_Static_Route', route, 'external_ids:"k8s.ovn.org/id"')
      .trim()
      .replace(/"/g, '');
    expect(routeId).toMatch(/^ovnkube-network-connect-controller:ClusterNetworkConnect:colored-enterprise:/);
    nbctl(lab, 'lr-route-del', router, '104.104.2.0/24');
    const policyId =
      'ovnkube-network-connect-controller:ClusterNetworkConnect:colored-enterprise:2:1:v4:cluster_udn_green.network_ovn_cluster_router:ovn-worker2';
    const policy = nbctl(
      lab,
      '--bare',
      '--columns=_uuid',
      'find',
      'Logical_Router_Policy',
      `external_ids:"k8s.ovn.org/id"="${policyId}"`,
    ).trim();
    nbctl(lab, 'set', 'Logical_Router_Policy', policy, 'action=drop');
    sync(lab);
    expect(
      await misbehaving(
        lab,
        [
          { from: 'blue/a', to: 'green/b', address: greenB },
          { from: 'green/a', to: 'blue/a', address: podIPs(lab, 'blue', 'a')[0]! },
        ],
        false,
      ),
    ).toEqual([]);

    const drift = ovnk('diff', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(drift.status).toBe(2);
    const lines: string[] = drift.json.zones.central.drift;
    expect(
      lines.some((l) => l === `missing: Logical_Router_Static_Route "${routeId}"`),
      lines.join('\n'),
    ).toBe(true);
    expect(
      lines.some((l) => l.startsWith('changed: Logical_Router_Policy') && l.includes(policyId) && l.includes('action')),
      lines.join('\n'),
    ).toBe(true);

    expect(ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json').json.zones.central.sent).toBe(true);
    expect(ovnk('diff', '-f', file, '--lab', lab.name).status).toBe(0);
    sync(lab);
    expect(await misbehaving(lab, across(['blue/a', 'green/a'], ['green/b', 'blue/b']), true)).toEqual([]);
  });

  it('a network the selector drops loses its traffic and its slice, the others keep theirs, and it comes back with a new allocation the plan shows', async () => {
    const before = storedState(lab, owner).allocation.connects['colored-enterprise'].l2.owners;
    const yellowOwner = Object.keys(before).find((k) => k.startsWith('layer2_'))!;
    expect(yellowOwner).toBeDefined();
    const leave = variant('colored-enterprise.yaml', 'yellow-leaves.yaml', [
      ['values: [yellow, red]', 'values: [red]'],
    ]);
    expect(ovnk('apply', '-f', leave, '--lab', lab.name).status).toBe(0);
    sync(lab);
    expect(await misbehaving(lab, across(['yellow/a', 'yellow/b'], ['blue/a', 'green/b']), false)).toEqual([]);
    expect(await misbehaving(lab, across(['blue/a'], ['green/b']), true)).toEqual([]);
    expect(Object.keys(storedState(lab, owner).allocation.connects['colored-enterprise'].l2.owners)).not.toContain(
      yellowOwner,
    );
    expect(nbctl(lab, '--bare', '--columns=name', 'list', 'Logical_Router_Port')).not.toContain(
      'crtor-colored-enterprise_yellow',
    );

    expect(ovnk('apply', '-f', file, '--lab', lab.name).status).toBe(0);
    const after = storedState(lab, owner).allocation.connects['colored-enterprise'].l2.owners;
    expect(after[yellowOwner]).toBeDefined();
    expect(after[yellowOwner]).not.toEqual(before[yellowOwner]);
    const target = await fileTarget({ file, lab: lab.name });
    const text = planText(target.cluster, planFor(target).allocation);
    await releaseZones(target);
    expect(text).toMatch(
      new RegExp(` ${yellowOwner} +yellow_yellow-network +${escaped(after[yellowOwner].join(', '))} `),
    );
    sync(lab);
    expect(await misbehaving(lab, across(['yellow/a'], ['blue/b', 'green/a']), true)).toEqual([]);
  });

  it('a changed connectSubnets: plan shows the replacement, apply refuses it without --replace and makes it with --replace, and pods still reach each other', async () => {
    const moved = variant('colored-enterprise.yaml', 'moved-subnets.yaml', [
      ['{cidr: 192.168.0.0/16, networkPrefix: 24}', '{cidr: 172.31.0.0/16, networkPrefix: 24}'],
    ]);
    const planned = ovnk('plan', '-f', moved, '--lab', lab.name, '-o', 'json');
    expect(planned.status, planned.stderr).toBe(0);
    expect(planned.json.replacements).toEqual([
      expect.objectContaining({ kind: 'ClusterNetworkConnect', name: 'colored-enterprise' }),
    ]);
    expect(ovnk('plan', '-f', moved, '--lab', lab.name).stdout).toMatch(
      /replace: ClusterNetworkConnect\/colored-enterprise: spec\.connectSubnets changed from \[192\.168\.0\.0\/16\/p24, fd01::\/112\/p120\] to \[172\.31\.0\.0\/16\/p24/,
    );
    const ports = () =>
      nbctl(
        lab,
        '--bare',
        '--columns=networks',
        'find',
        'Logical_Router_Port',
        `external_ids:"k8s.ovn.org/name"=colored-enterprise`,
      );
    const before = ports();
    const refused = ovnk('apply', '-f', moved, '--lab', lab.name, '-o', 'json');
    expect(refused.status).toBe(1);
    expect(refused.json.ok).toBe(false);
    expect(refused.json.error).toMatch(/connectSubnets is immutable.*give --replace to replace it$/);
    expect(refused.json.problems).toEqual([
      expect.objectContaining({
        reason: 'ReplaceRequired',
        path: 'ClusterNetworkConnect/colored-enterprise: spec.connectSubnets',
      }),
    ]);
    expect(ports()).toBe(before);
    const replaced = ovnk('apply', '-f', moved, '--lab', lab.name, '--replace', '-o', 'json');
    expect(replaced.status, replaced.stderr).toBe(0);
    expect(replaced.json.replaced).toEqual(['ClusterNetworkConnect/colored-enterprise']);
    const v4 = ports()
      .split(/\s+/)
      .filter((n) => /^\d/.test(n));
    expect(v4.length).toBeGreaterThan(0);
    expect(v4.every((n) => n.startsWith('172.31.'))).toBe(true);
    expect(storedState(lab, owner).allocation.connects['colored-enterprise'].connectSubnets[0].cidr).toBe(
      '172.31.0.0/16',
    );
    expect(ovnk('apply', '-f', moved, '--lab', lab.name, '-o', 'json').json.zones.central.sent).toBe(false);
    expect(ovnk('diff', '-f', moved, '--lab', lab.name).status).toBe(0);
    sync(lab);
    expect(await misbehaving(lab, across(['blue/a', 'yellow/a'], ['green/b', 'blue/b']), true)).toEqual([]);
    expect(ovnk('apply', '-f', file, '--lab', lab.name, '--replace').status).toBe(0);
  });

  it('destroy leaves no row and no state of this owner', () => {
    expect(ovnk('destroy', '-f', file, '--lab', lab.name).status).toBe(0);
    return ownedRowCounts(lab, owner).then((counts) => {
      expect(counts).toEqual({});
      expect(storedState(lab, owner)).toBeUndefined();
      // tables without external_ids are owned through the ledger: the rows and the ledger go together
      expect(nbctl(lab, 'get', 'NB_Global', '.', 'external_ids')).not.toContain(`ovnk.io/owned/${owner}`);
      const ours = /^rtoe-GR_(cluster_udn_(blue|green|orange)\.network|yellow_yellow\.network)_/;
      expect(
        nbctl(lab, '--bare', '--columns=logical_port', 'list', 'Static_MAC_Binding')
          .split('\n')
          .filter((p) => ours.test(p.trim())),
      ).toEqual([]);
      expect(nbctl(lab, '--bare', '--columns=name', 'list', 'Load_Balancer_Group')).not.toMatch(
        /cnc_svc_colored-enterprise|cluster_udn_blue\.network_clusterLBGroup/,
      );
    });
  });
});
