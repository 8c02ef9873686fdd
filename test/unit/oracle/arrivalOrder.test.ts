/**
 * What the oracle treats as order only: upstream assigns node ids, network ids, host subnets and
 * tunnel keys in the arrival order of its events (oracle/clusterManager.ts withoutArrivalOrder),
 * and pod addresses in the order its queues deliver pods (oracle/podOrder.ts). A permutation is
 * not a difference; anything else still is.
 */
import { describe, expect, it } from 'vitest';
import { compareAnnotations, withoutArrivalOrder, type ClusterAnnotations } from '../../../oracle/clusterManager';
import { podAddressPermutation, renameAddresses } from '../../../oracle/podOrder';
import type { NaturalRow } from '../../../provider/nb/naturalKeys';

const ours: ClusterAnnotations = {
  nodes: {
    a: { 'k8s.ovn.org/node-id': '2', 'k8s.ovn.org/node-subnets': '{"n":["10.0.0.0/24"]}' },
    b: { 'k8s.ovn.org/node-id': '3', 'k8s.ovn.org/node-subnets': '{"n":["10.0.1.0/24"]}' },
  },
  nads: { 'x/n': { 'k8s.ovn.org/network-id': '1' } },
  connects: {},
};

const swapped = (subnetB: string): ClusterAnnotations => ({
  nodes: {
    a: { 'k8s.ovn.org/node-id': '3', 'k8s.ovn.org/node-subnets': '{"n":["10.0.1.0/24"]}' },
    b: { 'k8s.ovn.org/node-id': '2', 'k8s.ovn.org/node-subnets': `{"n":["${subnetB}"]}` },
  },
  nads: { 'x/n': { 'k8s.ovn.org/network-id': '1', 'k8s.ovn.org/tunnel-keys': '[]' } },
  connects: {},
});

describe('arrival order', () => {
  it('takes swapped node ids and host subnets, and an empty tunnel-keys list, as ours', () => {
    expect(compareAnnotations(withoutArrivalOrder(swapped('10.0.0.0/24'), ours), ours)).toEqual([]);
  });

  it('still reports a host subnet that is not one of ours', () => {
    const left = compareAnnotations(withoutArrivalOrder(swapped('10.0.9.0/24'), ours), ours);
    expect(left.map((d) => `${d.key} ${d.column}`)).toEqual([
      'a k8s.ovn.org/node-subnets',
      'b k8s.ovn.org/node-subnets',
    ]);
  });

  it('after retried node patches, takes distinct subnets of our sizes as ours', () => {
    expect(compareAnnotations(withoutArrivalOrder(swapped('10.0.9.0/24'), ours, true), ours)).toEqual([]);
  });

  it('renames pod addresses upstream permuted, and only when they are a permutation', () => {
    const port = (key: string, addresses: string) => ({
      key,
      columns: { addresses: [addresses], external_ids: { pod: 'true' } },
    });
    const mine = [port('p1', '0a:58:0a:00:00:05 10.0.0.5'), port('p2', '0a:58:0a:00:00:06 10.0.0.6')].map(
      (r): NaturalRow => ({ table: 'Logical_Switch_Port', ...r, named: [], references: {}, source: r.key }),
    );
    const upstream = {
      Logical_Switch_Port: [port('p1', '0a:58:0a:00:00:06 10.0.0.6'), port('p2', '0a:58:0a:00:00:05 10.0.0.5')],
      Load_Balancer: [{ key: 'lb', columns: { vips: { '10.96.0.1:80': '10.0.0.6:80,10.0.0.5:80' } } }],
    };
    const permutation = podAddressPermutation(upstream, mine)!;
    expect(renameAddresses(upstream, permutation).Load_Balancer![0]!.columns.vips).toEqual({
      '10.96.0.1:80': '10.0.0.5:80,10.0.0.6:80',
    });
    const other = { Logical_Switch_Port: [port('p1', '0a:58:0a:00:00:07 10.0.0.7'), upstream.Logical_Switch_Port[1]!] };
    expect(podAddressPermutation(other, mine)).toBeUndefined();
  });
});
