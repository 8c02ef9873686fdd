/**
 * ClusterArgs take Inputs except where a value decides the children (components/plainArgs.ts): an
 * Output there (as a JavaScript program, or one that casts, can pass) is refused before anything is
 * registered, naming its path and why that value must be plain, in both modes; with Uplinks every
 * value must be plain. test/pulumi/inputs-consumer.test.ts runs Inputs from a consumer project.
 * Before, an Output as `inventory.spec.nodes` was serialized into a warning string and registered
 * one ZoneRows per character, named `...-zone-undefined`, without any error.
 */
import * as pulumi from '@pulumi/pulumi';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterArgs } from '../../components';
import { topologyArgs } from './fixtures';
import { installMocks, type Registered } from './mocks';

describe('a Cluster given an Output where a plain value decides its children', () => {
  let registered: Registered[] = [];
  let components: typeof import('../../components');
  beforeAll(async () => {
    registered = installMocks(true);
    components = await import('../../components');
  });

  it('refuses an Output as inventory.spec.nodes in the per-node layout, naming the path and the zone resources, registering nothing', () => {
    const args = topologyArgs('colored-enterprise', 'per-node');
    const nodes = pulumi.output(args.inventory.spec.nodes ?? []);
    const given = { ...args, inventory: { ...args.inventory, spec: { ...args.inventory.spec, nodes } } };
    expect(() => new components.Cluster('o1', given as unknown as ClusterArgs)).toThrow(
      /^Cluster o1: inventory\.spec\.nodes is a pulumi Output or Promise, but it must be a plain value: the node list decides which resources exist \(one ZoneRows per node in the per-node layout\)/,
    );
    expect(registered.filter((r) => r.name.startsWith('o1'))).toEqual([]);
  });

  it("takes an Output deep in a network's spec, and refuses a Promise as a connect's name and an Output as a topology, each by its path", () => {
    const args = topologyArgs('colored-enterprise', 'central');
    const [first, ...rest] = args.networks!;
    const subnets = (first!.spec as any).network.layer3.subnets;
    const network = JSON.parse(JSON.stringify(first));
    network.spec.network.layer3.subnets = [{ ...subnets[0], cidr: pulumi.output(subnets[0].cidr) }];
    expect(() => new components.Cluster('o2', { ...args, networks: [network, ...rest] })).not.toThrow();
    const connect = JSON.parse(JSON.stringify(args.connects![0]));
    connect.metadata.name = Promise.resolve('late');
    expect(() => new components.Cluster('o3', { ...args, connects: [connect] })).toThrow(
      'connects[0].metadata.name is a pulumi Output or Promise, but it must be a plain value: names, kinds and topologies decide which child components exist',
    );
    const typed = JSON.parse(JSON.stringify(first));
    typed.spec.network = pulumi.output(typed.spec.network);
    expect(() => new components.Cluster('o4', { ...args, networks: [typed, ...rest] })).toThrow(
      'Cluster o4: networks[0].spec.network is a pulumi Output or Promise, but it must be a plain value',
    );
    expect(registered.filter((r) => /^o[34]/.test(r.name))).toEqual([]);
  });

  it('with Uplinks refuses an Output anywhere, saying why; Kubernetes mode refuses it only where it decides', () => {
    const args = topologyArgs('colored-enterprise', 'central');
    const labels = pulumi.output({ rack: 'r1' });
    const nodes = (args.inventory.spec.nodes ?? []).map((n, i) => (i === 0 ? { ...n, labels } : n));
    const inventory = { ...args.inventory, spec: { ...args.inventory.spec, nodes } };
    const red = {
      apiVersion: 'k8s.ovn.org/v1alpha1' as const,
      kind: 'Uplink' as const,
      metadata: { name: 'red' },
      spec: { nodeConfigs: [{ type: 'OVSBridge' as const, nodeSelector: {}, hostInterfaceName: 'red0' }] },
    };
    expect(() => new components.Cluster('o5', { ...args, inventory, uplinks: [red] })).toThrow(
      'Cluster o5: inventory.spec.nodes[0].labels is a pulumi Output or Promise, but it must be a plain value: with Uplinks, the Inventory and the networks decide which nodes get an UplinkState',
    );
    expect(registered.filter((r) => /^o5/.test(r.name))).toEqual([]);
    const target = components.kubernetesTarget();
    // a node's labels decide no child: ClusterPrediction's check validates them once known
    expect(() => new components.Cluster('o6', { ...args, inventory, target })).not.toThrow();
    const outputNodes = { ...args.inventory, spec: { ...args.inventory.spec, nodes: pulumi.output(nodes) as never } };
    expect(() => new components.Cluster('o7', { ...args, inventory: outputNodes, target })).toThrow(
      'Cluster o7: inventory.spec.nodes is a pulumi Output or Promise, but it must be a plain value',
    );
    expect(registered.filter((r) => /^o7/.test(r.name))).toEqual([]);
  });
});
