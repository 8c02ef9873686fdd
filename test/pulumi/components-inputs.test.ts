/**
 * ClusterArgs take plain values: an Output (as a JavaScript program, or one that casts, can pass)
 * is refused before anything is registered, naming its path and why that value must be plain.
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
      /^Cluster o1: inventory\.spec\.nodes is a pulumi Output or Promise, but ClusterArgs take plain values: the node list decides which resources exist \(one ZoneRows per node in the per-node layout\)/,
    );
    expect(registered.filter((r) => r.name.startsWith('o1'))).toEqual([]);
  });

  it("refuses an Output deep in a network's spec and a Promise as a connect's name, each by its path", () => {
    const args = topologyArgs('colored-enterprise', 'central');
    const [first, ...rest] = args.networks!;
    const subnets = (first!.spec as any).network.layer3.subnets;
    const network = JSON.parse(JSON.stringify(first));
    network.spec.network.layer3.subnets = [{ ...subnets[0], cidr: pulumi.output(subnets[0].cidr) }];
    expect(() => new components.Cluster('o2', { ...args, networks: [network, ...rest] })).toThrow(
      'Cluster o2: networks[0].spec.network.layer3.subnets[0].cidr is a pulumi Output or Promise, but ClusterArgs take plain values: the components validate and allocate from plain values at preview',
    );
    const connect = JSON.parse(JSON.stringify(args.connects![0]));
    connect.metadata.name = Promise.resolve('late');
    expect(() => new components.Cluster('o3', { ...args, connects: [connect] })).toThrow(
      'connects[0].metadata.name is a pulumi Output or Promise, but ClusterArgs take plain values: names, kinds and topologies decide which child components exist',
    );
    expect(registered.filter((r) => /^o[23]/.test(r.name))).toEqual([]);
  });
});
