/**
 * Point 7 of issue 16: connect status texts as upstream's. From the cluster manager's
 * networkconnect controller_test.go:
 * - "sets Accepted=False and preserves network allocation on cross-validation failure": the shared
 *   networks are named by owner key, `... which both select networks [layer3_1]`;
 * - "sets Accepted=False condition on overlapping pod subnets", with upstream's validateCNC prefix
 *   `validation failed for CNC <cnc>: ` and CheckNetworksOverlap's plain CIDRs;
 * - "sets Accepted=False condition and ignores selected networks using NoOverlay or EVPN
 *   transport": the NAD's transport name, `no-overlay`.
 */
import { describe, expect, it } from 'vitest';
import { allocateTopology } from '../../../provider/runtime/plan';

const udn = (namespace: string, id: number, subnet: string, hostSubnet: number, extra = '') => `---
apiVersion: k8s.ovn.org/v1
kind: UserDefinedNetwork
metadata: {name: primary-udn, namespace: ${namespace}, annotations: {k8s.ovn.org/network-id: "${id}"}}
spec:
  topology: Layer3
  layer3: {role: Primary, subnets: [{cidr: ${subnet}, hostSubnet: ${hostSubnet}}]}
${extra}`;

const cnc = (name: string, selector = 'PrimaryUserDefinedNetworks') => `---
apiVersion: k8s.ovn.org/v1
kind: ClusterNetworkConnect
metadata: {name: ${name}}
spec:
  networkSelectors:
  - networkSelectionType: ${selector}
    ${selector === 'PrimaryUserDefinedNetworks' ? 'primaryUserDefinedNetworkSelector: {namespaceSelector: {}}' : 'clusterUserDefinedNetworkSelector: {networkSelector: {}}'}
  connectSubnets: [{cidr: 192.168.0.0/16, networkPrefix: 24}]
  connectivity: [PodNetwork]
`;

const inventory = (namespaces: string[]) => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: cm}
spec:
  ipFamilies: [IPv4]
  namespaces: [${namespaces.map((n) => `{name: ${n}}`).join(', ')}]
  nodes: [{name: n1, id: 2}]
`;

function messages(text: string, connect: string): string[] {
  const outcome = allocateTopology(text);
  if (!outcome.ok) throw new Error(`input unusable: ${JSON.stringify(outcome.problems)}`);
  return outcome.allocated.allocation.connects[connect]!.problems.map((p) => p.message);
}

describe("connect status texts as upstream's", () => {
  it('name the networks two overlapping connects both select by owner key', () => {
    const text =
      inventory(['frontend-a']) + udn('frontend-a', 1, '103.103.0.0/16', 24) + cnc('test-cnc1') + cnc('test-cnc2');
    expect(messages(text, 'test-cnc2')).toContain(
      'cross-validation failed for CNC test-cnc2: connectSubnets overlap detected between CNC test-cnc2 and CNC test-cnc1 which both select networks [layer3_1]',
    );
  });

  it('give overlapping pod subnets the "validation failed for CNC" prefix and plain CIDRs', () => {
    const text =
      inventory(['frontend-a', 'frontend-b']) +
      udn('frontend-a', 1, '103.103.0.0/16', 24) +
      udn('frontend-b', 2, '103.103.1.0/24', 28) +
      cnc('test-cnc');
    expect(messages(text, 'test-cnc')).toContain(
      'validation failed for CNC test-cnc: can not connect selected networks: selected networks have overlapping subnets: network frontend-b_primary-udn with subnets [103.103.1.0/24] and network frontend-a_primary-udn with subnets [103.103.0.0/16]',
    );
  });

  it("name a no-overlay network's transport as the NAD does", () => {
    const cudn = (name: string, transport: string) => `---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: ${name}}
spec:
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ${name}}}
  network: {topology: Layer3, ${transport}layer3: {role: Primary, subnets: [{cidr: 103.${name === 'a' ? 103 : 105}.0.0/16}]}}
`;
    const text =
      inventory(['a', 'c']) +
      cudn('a', 'transport: NoOverlay, noOverlay: {outboundSNAT: Enabled, routing: Managed}, ') +
      cudn('c', '') +
      cnc('test-cnc', 'ClusterUserDefinedNetworks');
    expect(messages(text, 'test-cnc')).toContain(
      'network cluster_udn_a has transport type no-overlay that is not supported for networkConnect',
    );
  });
});
