import { describe, expect, it } from 'vitest';
import { planTopology } from '../../../provider/runtime/cli';

// Issue 15 point 9: a refusal of the renderer (a subnet too small for its pods, a join subnet
// missing a family) named the path `render: pods`, which points at nothing the user wrote. It
// now names the network object and the field of its config. Found by the fuzz suite (test/fuzz).

const inventory = (families: string, pods: string) => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: fuzz}
spec:
  ipFamilies: ${families}
  clusterSubnets: [10.244.0.0/16, "fd00:10:244::/48"]
  serviceCIDRs: [10.96.0.0/16, "fd00:10:96::/112"]
  namespaces: [{name: blue, labels: {network: blue}}]
  nodes: [{name: n1}, {name: n2}]
  pods: [${pods}]
`;

const cudn = (config: string) => `
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: blue}
spec:
  namespaceSelector: {matchLabels: {network: blue}}
  network: ${config}
`;

const udn = (config: string) => `
apiVersion: k8s.ovn.org/v1
kind: UserDefinedNetwork
metadata: {name: blue, namespace: blue}
spec: ${config}
`;

const refusals = (text: string) => {
  const result = planTopology(text);
  return result.ok ? [] : result.problems.map(({ reason, path, message }) => ({ reason, path, message }));
};

const twoPods = '{name: a, namespace: blue, node: n1}, {name: b, namespace: blue, node: n2}';
const layer2 = '{topology: Layer2, layer2: {role: Primary, subnets: [10.100.0.4/30]}}';
const layer3 =
  '{topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.100.0.0/16}, {cidr: "fd10::/48"}], joinSubnets: [10.101.0.0/16]}}';

describe('refusals of the renderer name the network and its field', () => {
  it('names the subnets of a Layer2 network too small for its pods', () => {
    expect(refusals(`${inventory('[IPv4]', twoPods)}---${cudn(layer2)}`)).toEqual([
      {
        reason: 'InvalidField',
        path: 'ClusterUserDefinedNetwork/blue: spec.network.layer2.subnets',
        message: expect.stringMatching(
          /^spec\.network\.layer2\.subnets: pods: "blue\/a" cannot get an address: subnet 10\.100\.0\.4\/30 is full$/,
        ),
      },
    ]);
  });

  it('names the same field of a namespaced network, where the config sits under spec', () => {
    expect(refusals(`${inventory('[IPv4]', twoPods)}---${udn(layer2)}`).map((p) => p.path)).toEqual([
      'UserDefinedNetwork/blue/blue: spec.layer2.subnets',
    ]);
  });

  it('names the join subnets of a dual-stack network that gives only an IPv4 one', () => {
    expect(refusals(`${inventory('[IPv4, IPv6]', '')}---${cudn(layer3)}`)).toEqual([
      {
        reason: 'InvalidField',
        path: 'ClusterUserDefinedNetwork/blue: spec.network.layer3.joinSubnets',
        message: expect.stringContaining('has no IPv6 subnet'),
      },
    ]);
  });
});
