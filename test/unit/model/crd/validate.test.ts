import { describe, expect, it } from 'vitest';
import { validateObject } from '../../../../provider/model/crd';
import { loadDocuments } from '../../../../provider/model/load';

const cudn = (network: object, name = 'blue') => ({
  apiVersion: 'k8s.ovn.org/v1',
  kind: 'ClusterUserDefinedNetwork',
  metadata: { name },
  spec: { namespaceSelector: {}, network },
});
const layer3 = (subnets: object[]) => cudn({ topology: 'Layer3', layer3: { role: 'Primary', subnets } });
const messages = (object: unknown, old?: unknown) => validateObject(object, { old }).map((p) => p.message);

describe('validateObject against the pinned CRDs', () => {
  it('accepts a valid Layer3 CUDN', () => {
    expect(validateObject(layer3([{ cidr: '10.1.0.0/16', hostSubnet: 24 }]))).toEqual([]);
  });

  it('refuses a misspelled field with its path, and says which field was meant', () => {
    expect(validateObject(layer3([{ cidr: '10.1.0.0/16', hostsubnet: 24 }]))).toEqual([
      {
        reason: 'InvalidField',
        object: 'ClusterUserDefinedNetwork/blue',
        path: 'ClusterUserDefinedNetwork/blue: spec.network.layer3.subnets[0].hostsubnet',
        message: 'spec.network.layer3.subnets[0].hostsubnet: unknown field "hostsubnet" (did you mean "hostSubnet"?)',
      },
    ]);
  });

  it('refuses an object name that is not a DNS-1123 subdomain', () => {
    const problems = validateObject(layer3([{ cidr: '10.1.0.0/16' }]), { ref: 'ClusterUserDefinedNetwork/x' });
    expect(validateObject(cudn({}, 'Blue Network!')).map((p) => p.path)).toContain(
      'ClusterUserDefinedNetwork/Blue Network!: metadata.name',
    );
    expect(problems).toEqual([]);
  });

  // issue 26 point 3: upstream's Uplink CRD takes any name the API server takes
  it('wants an Uplink name to be a DNS-1123 subdomain, as every custom resource name', () => {
    const uplink = (name: string) => ({
      apiVersion: 'k8s.ovn.org/v1alpha1',
      kind: 'Uplink',
      metadata: { name },
      spec: { nodeConfigs: [{ type: 'OVSBridge', nodeSelector: {}, hostInterfaceName: 'br-blue' }] },
    });
    expect(validateObject(uplink('blue'))).toEqual([]);
    expect(validateObject(uplink('blue.a'))).toEqual([]);
    expect(messages(uplink('Blue_a'))).toEqual([
      expect.stringMatching(/^metadata.name: Invalid value: "Blue_a": a lowercase RFC 1123 subdomain/),
    ]);
  });

  it('evaluates CEL rules with the CRD message and the value', () => {
    expect(messages(layer3([{ cidr: '10.1.0.0/16', hostSubnet: 33 }]))).toContainEqual(
      'spec.network.layer3.subnets[0]: Invalid value: HostSubnet must < 32 for ipv4 CIDR (value {"cidr":"10.1.0.0/16","hostSubnet":33})',
    );
  });

  it('evaluates transition rules only when the old object is given, as the API server does on update', () => {
    const before = layer3([{ cidr: '10.1.0.0/16', hostSubnet: 24 }]);
    const after = cudn({ topology: 'Layer2', layer2: { role: 'Primary', subnets: ['10.1.0.0/16'] } });
    expect(messages(after)).toEqual([]);
    expect(messages(after, before)).toContainEqual(expect.stringContaining('Topology is immutable'));
    expect(messages(before, before)).toEqual([]);
  });

  it('refuses an unknown kind naming the known ones, and an unserved apiVersion naming the served one', () => {
    expect(messages({ apiVersion: 'x/v1', kind: 'Thing', metadata: { name: 'a' } })).toEqual([
      expect.stringMatching(
        /^kind "Thing" is not one of Inventory \(ovnk\/v1alpha1\), ClusterNetworkConnect \(k8s.ovn.org\/v1\)/,
      ),
    ]);
    expect(messages({ ...layer3([]), apiVersion: 'k8s.ovn.org/v2' })).toEqual([
      'apiVersion "k8s.ovn.org/v2" of ClusterUserDefinedNetwork is not served: use k8s.ovn.org/v1',
    ]);
  });

  it('reads user keys with a percent sign as written, not as URI escapes (a fuzz case crashed it)', () => {
    const labels = (matchLabels: object) => ({
      ...layer3([{ cidr: '10.1.0.0/16' }]),
      spec: {
        namespaceSelector: { matchLabels },
        network: { topology: 'Layer3', layer3: { role: 'Primary', subnets: [{ cidr: '10.1.0.0/16' }] } },
      },
    });
    expect(validateObject(labels({ 'a%zz': [1] })).map((p) => p.path)).toContain(
      'ClusterUserDefinedNetwork/blue: spec.namespaceSelector.matchLabels["a%zz"]',
    );
    expect(messages(labels({ '%41': 5, A: 'x' }))).toContainEqual(
      expect.stringContaining('spec.namespaceSelector.matchLabels["%41"]: Invalid value: 5:'),
    );
  });

  it('refuses duplicates in list-type set and map lists', () => {
    const cnc = {
      apiVersion: 'k8s.ovn.org/v1',
      kind: 'ClusterNetworkConnect',
      metadata: { name: 'c' },
      spec: {
        networkSelectors: [
          {
            networkSelectionType: 'ClusterUserDefinedNetworks',
            clusterUserDefinedNetworkSelector: { networkSelector: {} },
          },
        ],
        connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 24 }],
        connectivity: ['PodNetwork', 'PodNetwork'],
      },
    };
    expect(messages(cnc)).toContainEqual(expect.stringContaining('connectivity cannot contain duplicate values'));
  });
});

describe('loadDocuments validates every document before anything else', () => {
  it('reports every problem of every document at once with the object and field path', () => {
    const text = [
      'apiVersion: ovnk/v1alpha1\nkind: Inventory\nmetadata: {name: lab}\nspec: {servicesCIDRs: [10.96.0.0/16]}',
      'apiVersion: k8s.ovn.org/v1\nkind: ClusterNetworkConnect\nmetadata: {name: c}\nspec:\n  networkSelectors: [{networkSelectionType: PrimaryUserDefinedNetworks, primaryUserDefinedNetworkSelector: {namespaceSelector: {}}}]\n  connectSubnets: [{cidr: 192.168.0.0/16, networkPrefix: 24}]\n  conectivity: [PodNetwork]',
    ].join('\n---\n');
    expect(loadDocuments(text).problems.map((p) => [p.path, p.message])).toEqual([
      [
        'Inventory/lab: spec.servicesCIDRs',
        'spec.servicesCIDRs: unknown field "servicesCIDRs" (did you mean "serviceCIDRs"?)',
      ],
      ['ClusterNetworkConnect/c: spec.connectivity', 'spec.connectivity: Required value'],
      [
        'ClusterNetworkConnect/c: spec.conectivity',
        'spec.conectivity: unknown field "conectivity" (did you mean "connectivity"?)',
      ],
    ]);
  });
});
