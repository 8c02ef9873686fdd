import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareZones } from '../../../provider/connect/zones';
import type { Service } from '../../../provider/model/inventory';
import { planTopology } from '../../../provider/runtime/plan';
import { topologyInputs } from '../../../provider/topology/fromCluster';
import type { RenderInput } from '../../../provider/topology/input';
import { renderNetwork } from '../../../provider/topology/render';
import {
  backendsOf,
  endpointsOf,
  hairpinSnatIp,
  loadBalancerRows,
  networkEndpoints,
  parseVip,
} from '../../../provider/topology/services';

const pod = (namespace: string, name: string, ips: string[]) => ({ namespace, name, node: 'n1', nadKey: '', ips });

const blueA = pod('blue', 'a', ['103.103.1.3', 'fd00:103:0:1::3']);
const blueB = pod('blue', 'b', ['103.103.0.3', 'fd00:103::3']);
const green = pod('green', 'a', ['104.104.0.3']);

const web: Service = {
  namespace: 'blue',
  name: 'web',
  clusterIPs: ['10.96.0.1'],
  ports: [{ protocol: 'TCP', port: 80 }],
};
const MASQUERADE = ['169.254.0.0/17', 'fd69::/112'];
const db: Service = { namespace: 'red', name: 'db', clusterIPs: ['10.96.0.1'], ports: [{ protocol: 'TCP', port: 80 }] };

/** A render input of `network` holding `pods` (only what networkEndpoints reads). */
const inputOf = (network: string, pods: ReturnType<typeof pod>[]) =>
  ({ network: { name: network }, pods }) as unknown as RenderInput;

describe('ClusterIP load balancers rendered with their backends, from the pods in hand', () => {
  it('a VIP of either family is split into its address and port', () => {
    expect(parseVip('10.96.0.1:80')).toEqual({ ip: '10.96.0.1', port: '80' });
    expect(parseVip('[fd00:10:96::1]:443')).toEqual({ ip: 'fd00:10:96::1', port: '443' });
    expect(parseVip('fd00::1:80')).toBeUndefined();
  });

  it("an IPv4 VIP gets the pods' IPv4 addresses, sorted, on its port; an IPv6 VIP the IPv6 ones in brackets", () => {
    const endpoints = endpointsOf([blueA, blueB]).blue!;
    expect(backendsOf('10.96.0.1:80', endpoints)).toBe('103.103.0.3:80,103.103.1.3:80');
    expect(backendsOf('[fd00:10:96::1]:80', endpoints)).toBe('[fd00:103:0:1::3]:80,[fd00:103::3]:80');
  });

  it('a service load balancer is backed only by pods of its namespace on its network', () => {
    const endpoints = networkEndpoints([
      inputOf('cluster_udn_blue', [blueA, green]),
      inputOf('other', [pod('blue', 'c', ['9.9.9.9'])]),
    ]);
    const [row] = loadBalancerRows('cluster_udn_blue', ['blue'], [web], endpoints.cluster_udn_blue!, MASQUERADE);
    expect(row!.columns.vips).toEqual({ '10.96.0.1:80': '103.103.1.3:80' });
  });

  it("carries buildLB's options: reject, no events or skip_snat, no neighbor responder, the hairpin masquerade addresses", () => {
    // upstream: controller/services/loadbalancer.go buildLB, lb_config.go lbOpts; seen in the oracle's dumps
    const [row] = loadBalancerRows('cluster_udn_red', ['red'], [db], {}, MASQUERADE);
    expect(row!.columns.options).toEqual({
      event: 'false',
      hairpin_snat_ip: '169.254.0.5 fd69::5',
      neighbor_responder: 'none',
      reject: 'true',
      skip_snat: 'false',
    });
  });

  it("names both families' hairpin addresses, upstream's default subnet for a family the cluster lacks", () => {
    // config.go Gateway.V4MasqueradeSubnet 169.254.169.0/29 and V6 fd69::/125 are the defaults;
    // AllocateV4MasqueradeIPs makes the 5th address the OVN service hairpin one
    expect(hairpinSnatIp(['fd69::/112'])).toBe('169.254.169.5 fd69::5');
    expect(hairpinSnatIp(['169.254.0.0/17'])).toBe('169.254.0.5 fd69::5');
  });

  it('pod addresses given with their prefix back the service by their bare address', () => {
    expect(endpointsOf([pod('blue', 'a', ['103.103.1.3/24'])])).toEqual({ blue: ['103.103.1.3'] });
  });

  it('a service without pods in its namespace keeps empty backends', () => {
    const [row] = loadBalancerRows('cluster_udn_red', ['red'], [db], endpointsOf([blueA]), MASQUERADE);
    expect(row!.columns.vips).toEqual({ '10.96.0.1:80': '' });
  });

  it("a network's own render and a ServiceNetwork connect's zone write the same load balancer, backed by the network's pods", () => {
    const text = readFileSync(join(__dirname, '../../../stacks/colored-enterprise-services.yaml'), 'utf8').replace(
      /(kind: Inventory[\s\S]*?spec:\n)/,
      '$1  nodes: [{name: ovn-worker}, {name: ovn-worker2}, {name: ovn-worker3}]\n',
    );
    const planned = planTopology(text);
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    const { cluster, allocation } = planned.plan;
    const inputs = topologyInputs(cluster, allocation).zones[0]!.inputs;
    const blue = inputs.find((i) => i.network.name === 'cluster_udn_blue-network')!;
    const own = renderNetwork(blue).filter((r) => r.table === 'Load_Balancer');
    expect(own.map((r) => r.columns.vips)).toEqual([
      { '10.96.10.10:8080': expect.stringMatching(/^\d+\.\d+\.\d+\.\d+:8080,\d+\.\d+\.\d+\.\d+:8080$/) },
    ]);
    const viaConnect = prepareZones(cluster, allocation, networkEndpoints(inputs)).loadBalancers;
    expect(viaConnect.filter((r) => r.columns.name === own[0]!.columns.name)).toEqual(own);
  });
});
