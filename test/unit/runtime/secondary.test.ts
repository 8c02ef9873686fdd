import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rowIdentity } from '../../../provider/nb/desired';
import { planTopology } from '../../../provider/runtime/cli';

// The lab's secondary fixture with its nodes listed, so it plans offline in the per-node layout.
const fixture = readFileSync(path.resolve(__dirname, '../../fixtures/networks-secondary.yaml'), 'utf8');
const nodes = `  zones: per-node
  nodes:
  - {name: ovn-worker, chassisId: ch-1}
  - {name: ovn-worker2, chassisId: ch-2}
  - {name: ovn-worker3, chassisId: ch-3}
  namespaces:
`;
const withNodes = (extraPods = '') =>
  fixture.replace('  namespaces:\n', nodes).replace('  pods:\n', `  pods:\n${extraPods}`);

function planOf(text: string) {
  const result = planTopology(text);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

const names = (rows: { table: string; columns: Record<string, unknown> }[], table: string) =>
  rows.filter((r) => r.table === table).map((r) => rowIdentity(r.table, r.columns) ?? '');

describe('secondary networks from a topology file', () => {
  const plan = planOf(withNodes('  - {name: e, namespace: lab, node: ovn-worker2, networks: [physical]}\n'));

  it('plans them without a problem, each with its own network id and transit key (cluster manager allocates every network)', () => {
    expect(plan.problems).toEqual([]);
    expect(plan.allocation.networkIds).toEqual({
      cluster_udn_gold: 1,
      cluster_udn_physical: 2,
      cluster_udn_purple: 3,
      lab_teal: 4,
    });
    // datapath keys: 16711683 + id, Localnet none (no interconnect, zone_ic_handler.go AddTransitSwitchConfig)
    expect(plan.allocation.datapathKeys.networks).toEqual({
      cluster_udn_gold: { transitSwitch: 16711684 },
      cluster_udn_purple: { transitSwitch: 16711686 },
      lab_teal: { transitSwitch: 16711687 },
    });
  });

  it('gives the secondary Layer3 network its own host subnet on every node', () => {
    expect(plan.allocation.hostSubnets.cluster_udn_purple).toEqual({
      'ovn-worker': ['10.50.0.0/24', 'fd50:0:0:1::/64'],
      'ovn-worker2': ['10.50.1.0/24', 'fd50:0:0:2::/64'],
      'ovn-worker3': ['10.50.2.0/24', 'fd50:0:0:3::/64'],
    });
  });

  it('addresses pods as upstream does: Layer3 from .3 of the host subnet, Layer2 and Localnet from the first free address', () => {
    // Layer3: the logical switch manager reserves .1 and .2 (logical_switch_manager.go NewLogicalSwitchManager);
    // Layer2/Localnet secondary: clustermanager/network_cluster_controller.go newIPAllocatorForNetwork reserves the
    // infrastructure addresses for primary Layer2 networks only, and skips excludeSubnets (192.0.2.0/30 here)
    expect(plan.state.pods.cluster_udn_purple).toEqual({
      'lab/a': ['10.50.0.3', 'fd50:0:0:1::3'],
      'lab/b': ['10.50.1.3', 'fd50:0:0:2::3'],
    });
    expect(plan.state.pods.lab_teal).toEqual({ 'lab/c': ['10.60.0.1'], 'lab/d': ['10.60.0.2'] });
    expect(plan.state.pods.cluster_udn_physical).toEqual({ 'lab/e': ['192.0.2.4'] });
    expect(plan.state.podTunnels).toEqual({ lab_teal: { 'lab/c': 1, 'lab/d': 2 } });
  });

  it('names each pod port after the NAD it attaches through, in the zone of its node', () => {
    const worker = plan.zones.find((z) => z.name === 'ovn-worker')!;
    const ports = names(worker.rows, 'Logical_Switch_Port').filter((n) => n.startsWith('lab.'));
    // Layer2 renders the other zones' pods as remote ports; Layer3 and Localnet only the zone's own
    expect(ports).toEqual(['lab.purple_lab_a', 'lab.teal_lab_c', 'lab.teal_lab_d']);
    const worker2 = plan.zones.find((z) => z.name === 'ovn-worker2')!;
    expect(names(worker2.rows, 'Logical_Switch_Port')).toContain('lab.physical_lab_e');
  });

  it('plugs a secondary Layer3 pod with routes to the network subnets instead of a default route', () => {
    const plug = plan.zones.flatMap((z) => z.pods).find((p) => p.network === 'cluster_udn_purple' && p.name === 'a')!;
    expect(plug).toMatchObject({
      addresses: ['10.50.0.3/24', 'fd50:0:0:1::3/64'],
      gateways: [],
      routes: ['10.50.0.0/16 via 10.50.0.1', 'fd50::/48 via fd50:0:0:1::1'],
    });
    const flat = plan.zones.flatMap((z) => z.pods).find((p) => p.network === 'lab_teal' && p.name === 'c')!;
    expect(flat).toMatchObject({ addresses: ['10.60.0.1/24'], gateways: [], routes: [] });
  });

  it('refuses pod networks that name no NAD, a primary network, or one without subnets, naming the entry', () => {
    const text =
      withNodes(
        '  - {name: x, namespace: lab, node: ovn-worker, networks: [nothing, gold/gold, purple, lab/purple]}\n' +
          '  - {name: y, namespace: lab, node: ovn-worker, networks: [bare]}\n',
      ) +
      `---
apiVersion: k8s.ovn.org/v1
kind: UserDefinedNetwork
metadata: {name: bare, namespace: lab}
spec: {topology: Layer2, layer2: {role: Secondary, ipam: {mode: Disabled}}}
`;
    const result = planTopology(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.reason, p.path, p.message])).toEqual([
      [
        'InvalidField',
        'Inventory/t-networks-sec: spec.pods[0].networks[0]',
        'spec.pods[0].networks[0] "nothing" names no NetworkAttachmentDefinition: no UserDefinedNetwork or ClusterUserDefinedNetwork named nothing serves namespace lab',
      ],
      [
        'InvalidField',
        'Inventory/t-networks-sec: spec.pods[0].networks[1]',
        'spec.pods[0].networks[1] "gold/gold" is primary network cluster_udn_gold, which a pod joins through its namespace, not through its networks',
      ],
      [
        'DuplicateObject',
        'Inventory/t-networks-sec: spec.pods[0].networks[3]',
        'spec.pods[0].networks[3] "lab/purple" attaches network cluster_udn_purple a second time',
      ],
      [
        'InvalidField',
        'Inventory/t-networks-sec: spec.pods[1].networks[0]',
        'spec.pods[1].networks[0] "bare" is network lab_bare, which has no subnets: upstream gives its pods a random MAC (allocatePodAnnotationWithRollback), which ovnk cannot predict',
      ],
    ]);
  });
});
