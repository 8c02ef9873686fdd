import { describe, expect, it } from 'vitest';
import {
  contains,
  formatCidr,
  mustParseCidr,
  nthAddress,
  formatAddress,
  overlaps,
  parseCidr,
} from '../../../provider/model/cidr';
import { buildCluster } from '../../../provider/model/cluster';
import { loadDocuments } from '../../../provider/model/load';
import { matchesSelector } from '../../../provider/model/selector';

describe('CIDR helpers', () => {
  it('refuses a CIDR that is not its own network address, naming the network address', () => {
    expect(parseCidr('192.168.0.1/16')).toEqual({
      ok: false,
      why: 'is not a network address (the network address is 192.168.0.0/16)',
    });
    expect(parseCidr('not-a-cidr')).toEqual({ ok: false, why: 'is not in CIDR notation (address/prefix)' });
    expect(parseCidr('10.0.0.0/33')).toMatchObject({ ok: false, why: expect.stringMatching(/invalid prefix length/) });
  });

  it('prints IPv6 in its compressed form and checks containment and overlap', () => {
    expect(formatCidr(mustParseCidr('fd01:0:0:0::/64'))).toBe('fd01::/64');
    expect(contains(mustParseCidr('10.0.0.0/8'), mustParseCidr('10.1.0.0/16'))).toBe(true);
    expect(overlaps(mustParseCidr('10.1.0.0/16'), mustParseCidr('10.0.0.0/8'))).toBe(true);
    expect(overlaps(mustParseCidr('10.0.0.0/16'), mustParseCidr('10.1.0.0/16'))).toBe(false);
    expect(overlaps(mustParseCidr('10.0.0.0/8'), mustParseCidr('fd00::/8'))).toBe(false);
    expect(formatAddress(4, nthAddress(mustParseCidr('192.168.0.0/24'), 9n))).toBe('192.168.0.9');
  });
});

describe('label selectors', () => {
  const labels = { tier: 'web', env: 'prod' };
  it.each([
    [{}, true],
    [{ matchLabels: { tier: 'web' } }, true],
    [{ matchLabels: { tier: 'db' } }, false],
    [{ matchExpressions: [{ key: 'env', operator: 'In' as const, values: ['prod', 'dev'] }] }, true],
    [{ matchExpressions: [{ key: 'env', operator: 'NotIn' as const, values: ['prod'] }] }, false],
    [{ matchExpressions: [{ key: 'zone', operator: 'NotIn' as const, values: ['a'] }] }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'Exists' as const }] }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' as const }] }, false],
  ])('selector %j matching {tier: web, env: prod} is %s', (selector, expected) => {
    expect(matchesSelector(selector, labels)).toBe(expected);
  });
});

describe('loading and building the cluster', () => {
  const inventory =
    'apiVersion: ovnk/v1alpha1\nkind: Inventory\nmetadata: {name: lab}\nspec: {namespaces: [{name: blue}]}\n';

  it('reports a YAML syntax error with the document it is in', () => {
    const loaded = loadDocuments(`${inventory}---\nkind: [unclosed\n`);
    expect(loaded.problems[0]).toMatchObject({ reason: 'InvalidDocument', path: 'document[1]' });
  });

  it('reports an unknown kind and a field of the wrong type with object and field path', () => {
    const text = `${inventory}---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n---\napiVersion: ovnk/v1alpha1\nkind: Inventory\nmetadata: {name: lab2}\nspec: {mtu: big}\n`;
    const { problems } = buildCluster(loadDocuments(text).documents);
    expect(problems.map((p) => p.reason)).toEqual(['UnknownKind', 'DuplicateObject']);
    const mtu = buildCluster(loadDocuments(text.split('---\n')[2]!).documents).problems;
    expect(mtu).toEqual([
      expect.objectContaining({
        reason: 'InvalidField',
        path: 'Inventory/lab2: spec.mtu',
        message: 'spec.mtu is "big": expected an integer',
      }),
    ]);
  });

  it('names OVN networks cluster_udn_<name> and <namespace>_<name> and finds the namespaces they serve', () => {
    const text = `${inventory}---
apiVersion: k8s.ovn.org/v1
kind: UserDefinedNetwork
metadata: {name: net, namespace: blue}
spec: {topology: Layer2, layer2: {role: Primary, subnets: [100.88.0.0/16]}}
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: wide}
spec: {namespaceSelector: {}, network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.1.0.0/16}]}}}
`;
    const { cluster, problems } = buildCluster(loadDocuments(text).documents);
    expect(problems).toEqual([]);
    expect(cluster.networks.map((n) => [n.name, n.namespaces])).toEqual([
      ['blue_net', ['blue']],
      ['cluster_udn_wide', ['blue']],
    ]);
    const layer2 = cluster.networks[0]!;
    expect(layer2.joinSubnets).toEqual(['100.65.0.0/16', 'fd99::/64']);
    expect(layer2.transitSubnets).toEqual(['100.89.0.0/16']);
    expect(cluster.networks[1]!.subnets).toEqual([{ cidr: '10.1.0.0/16', hostSubnet: 24 }]);
  });

  it('refuses a network subnet that is not a network address, at its field path', () => {
    const text = `${inventory}---\napiVersion: k8s.ovn.org/v1\nkind: UserDefinedNetwork\nmetadata: {name: n, namespace: blue}\nspec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.1.0.1/16}]}}\n`;
    const { problems } = buildCluster(loadDocuments(text).documents);
    expect(problems).toEqual([
      expect.objectContaining({
        reason: 'InvalidField',
        path: 'UserDefinedNetwork/blue/n: spec.layer3.subnets[0].cidr',
      }),
    ]);
  });
});
