import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readState } from '../../lab';
import { closeConnections } from '../../provider/runtime/cli';
import '../setup/lab';
import { startOvsdbServer, type OvsdbServer } from '../support/ovsdbServer';
import { listen, misbehaving, probes, request, stack, sync, variant } from './connect-helpers';
import { nbctl, ovnk, ownedRowCounts, podIPs } from './networks-helpers';

const lab = inject('lab');
const file = stack('colored-enterprise-services.yaml');
const clusterIP = '10.96.10.10';
const port = 8080;
const serviceOnly = variant('colored-enterprise-services.yaml', 'service-only.yaml', [
  ['connectivity: [PodNetwork, ServiceNetwork]', 'connectivity: [ServiceNetwork]'],
]);
const listeners: ChildProcess[] = [];
const blueReplies = ['blue/a', 'blue/b'];

beforeAll(() => {
  const applied = ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json');
  expect(applied.status, applied.stderr).toBe(0);
  sync(lab);
  for (const pod of blueReplies) listeners.push(listen(lab, pod, port, pod));
});

afterAll(async () => {
  for (const child of listeners) child.kill();
  await closeConnections();
  ovnk('destroy', '-f', file, '--lab', lab.name);
});

describe('ServiceNetwork with PodNetwork', () => {
  it("the cnc_svc group holds blue's ClusterIP load balancer, backed by blue's pods, on every connected switch", () => {
    const vips = nbctl(
      lab,
      'get',
      'Load_Balancer',
      'cluster_udn_blue.network_Service_blue/web_TCP_cluster',
      'vips',
    ).trim();
    const backends = blueReplies
      .map((p) => `${podIPs(lab, ...(p.split('/') as [string, string]))[0]}:${port}`)
      .sort()
      .join(',');
    expect(vips).toBe(`{"${clusterIP}:${port}"="${backends}"}`);
    const group = nbctl(
      lab,
      '--bare',
      '--columns=_uuid',
      'find',
      'Load_Balancer_Group',
      'name=cnc_svc_colored-enterprise',
    ).trim();
    const attached = nbctl(lab, '--bare', '--columns=name', 'find', 'Logical_Switch', `load_balancer_group{>=}${group}`)
      .split('\n')
      .filter(Boolean)
      .sort();
    expect(attached).toEqual([
      'cluster_udn_blue.network_ovn-worker',
      'cluster_udn_blue.network_ovn-worker2',
      'cluster_udn_blue.network_ovn-worker3',
      'cluster_udn_green.network_ovn-worker',
      'cluster_udn_green.network_ovn-worker2',
      'cluster_udn_green.network_ovn-worker3',
      'yellow_yellow.network_ovn_layer2_switch',
    ]);
  });

  it("green and yellow pods on other nodes reach the listener in a blue pod through blue's ClusterIP", async () => {
    for (const from of ['green/a', 'green/b', 'yellow/a'])
      expect(blueReplies, from).toContain(await request(lab, from, clusterIP, port));
  });

  it("green pods also reach blue's pods directly (PodNetwork)", async () => {
    expect(await request(lab, 'green/b', podIPs(lab, 'blue', 'a')[0]!, port)).toBe('blue/a');
  });
});

describe('ServiceNetwork only', () => {
  it.runIf(lab.ovn !== 'bookworm')(
    "green reaches blue's ClusterIP and gets the reply, but not blue's pod IPs (trixie OVN: ACL tiers and pass)",
    async () => {
      const applied = ovnk('apply', '-f', serviceOnly, '--lab', lab.name, '-o', 'json');
      expect(applied.status, applied.stderr).toBe(0);
      expect(applied.json.zones.central.summary).toContain(
        'create ACL "ovnkube-network-connect-controller:ClusterNetworkConnect:colored-enterprise:drop-pod"',
      );
      sync(lab);
      for (const from of ['green/a', 'green/b'])
        expect(blueReplies, from).toContain(await request(lab, from, clusterIP, port));
      expect(await request(lab, 'green/a', podIPs(lab, 'blue', 'b')[0]!, port, 2)).toBeUndefined();
      expect(
        await misbehaving(
          lab,
          probes(lab, ['green/a', 'blue/a', 'blue/b'], 4).filter((p) => p.from === 'green/a'),
          false,
        ),
      ).toEqual([]);
      expect(await misbehaving(lab, probes(lab, ['green/a', 'green/b'], 4), true)).toEqual([]);
      // back to PodNetwork + ServiceNetwork: the tier-0 ACLs go, direct traffic works again
      const back = ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json');
      expect(back.json.zones.central.summary.filter((l: string) => l.startsWith('delete ACL')).length).toBe(5);
      sync(lab);
      expect(await request(lab, 'green/a', podIPs(lab, 'blue', 'b')[0]!, port)).toBe('blue/b');
    },
  );

  it("a Northbound with bookworm's schema (7.0.0) refuses the mode naming the missing feature, and nothing is written", async () => {
    let server: OvsdbServer | undefined;
    try {
      server = await startOvsdbServer();
      const refused = ovnk('apply', '-f', serviceOnly, '--lab', lab.name, '--nb', server.unix, '-o', 'json');
      expect(refused.status, refused.stdout).toBe(1);
      expect(refused.json.error).toContain('refused, nothing was sent');
      expect(refused.json.error).toContain(
        'ACL.action="pass" is not allowed (needs OVN_Northbound >= 7.0.4 for the ACL "pass" action; server has 7.0.0)',
      );
      const db = { ...lab, nb: server.unix, ovnRoot: undefined };
      expect(nbctl(db, '--bare', '--columns=_uuid', 'list', 'Logical_Router')).toBe('');
      expect(nbctl(db, '--bare', '--columns=_uuid', 'list', 'ACL')).toBe('');
      expect(nbctl(db, '--bare', '--columns=external_ids', 'list', 'NB_Global')).not.toContain('ovnk.io');
    } finally {
      await server?.stop();
    }
  });
});

describe("a network's own ClusterIP, without any connect", () => {
  it("blue's pods reach blue's ClusterIP through blue's clusterLBGroup on its switches; green, not connected, does not", async () => {
    const text = readFileSync(stack('colored-enterprise-services.yaml'), 'utf8');
    const connect = text.slice(text.indexOf('---\napiVersion: k8s.ovn.org/v1\nkind: ClusterNetworkConnect'));
    const alone = variant('colored-enterprise-services.yaml', 'no-connect.yaml', [[connect, '']]);
    const applied = ovnk('apply', '-f', alone, '--lab', lab.name, '-o', 'json');
    expect(applied.status, applied.stderr).toBe(0);
    expect(nbctl(lab, '--bare', '--columns=name', 'list', 'Logical_Router')).not.toContain('connect_router_');
    expect(
      nbctl(lab, '--bare', '--columns=_uuid', 'find', 'Load_Balancer_Group', 'name=cnc_svc_colored-enterprise').trim(),
    ).toBe('');
    const group = nbctl(
      lab,
      '--bare',
      '--columns=_uuid',
      'find',
      'Load_Balancer_Group',
      'name=cluster_udn_blue.network_clusterLBGroup',
    ).trim();
    const attached = nbctl(lab, '--bare', '--columns=name', 'find', 'Logical_Switch', `load_balancer_group{>=}${group}`)
      .split('\n')
      .filter(Boolean)
      .sort();
    expect(attached).toEqual([
      'cluster_udn_blue.network_ovn-worker',
      'cluster_udn_blue.network_ovn-worker2',
      'cluster_udn_blue.network_ovn-worker3',
    ]);
    sync(lab);
    for (const from of blueReplies) expect(blueReplies, from).toContain(await request(lab, from, clusterIP, port));
    expect(await request(lab, 'green/a', clusterIP, port, 2)).toBeUndefined();
  });
});

describe('two connects selecting one network with overlapping connect subnets', () => {
  it('apply refuses with ConnectSubnetOverlap and applies nothing', async () => {
    const second = [
      '  connectivity: [PodNetwork]',
      '---',
      'apiVersion: k8s.ovn.org/v1',
      'kind: ClusterNetworkConnect',
      'metadata: {name: second}',
      'spec:',
      '  networkSelectors:',
      '  - networkSelectionType: ClusterUserDefinedNetworks',
      '    clusterUserDefinedNetworkSelector:',
      '      networkSelector: {matchLabels: {enterprise: colored}}',
      '  connectSubnets:',
      '  - {cidr: 192.168.128.0/17, networkPrefix: 24}',
      '  connectivity: [PodNetwork]',
    ].join('\n');
    const overlap = variant('colored-enterprise.yaml', 'overlap.yaml', [
      ['metadata: {name: colored-enterprise}\nspec:\n  ipFamilies', 'metadata: {name: overlap}\nspec:\n  ipFamilies'],
      ['  connectivity: [PodNetwork]', second],
    ]);
    const podsBefore = readState(lab.name)!.pods.length;
    const refused = ovnk('apply', '-f', overlap, '--lab', lab.name, '-o', 'json');
    expect(refused.status, refused.stdout).toBe(1);
    expect(refused.json.problems.map((p: { reason: string }) => p.reason)).toContain('ConnectSubnetOverlap');
    expect(await ownedRowCounts(lab, 'overlap')).toEqual({});
    expect(nbctl(lab, 'get', 'NB_Global', '.', 'external_ids')).not.toContain('ovnk.io/state/overlap');
    expect(readState(lab.name)!.pods.length).toBe(podsBefore);
  });
});
