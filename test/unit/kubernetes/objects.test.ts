import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { brokenRules, transitionPaths, transitionRules, validateObject } from '../../../provider/model/crd';
import { kubernetesRefusals, kubernetesResource, replacementsOf } from '../../../provider/runtime/kubernetes';

// What Kubernetes mode sends to the API server, against upstream's pinned CRDs. The manifests
// marked "upstream e2e" are upstream's own CRD scenarios (test/e2e/testscenario/...), copied as facts.
const fixture = (name: string) =>
  parseAllDocuments(readFileSync(join(__dirname, '..', '..', 'fixtures', `${name}.yaml`), 'utf8')).map(
    (d) => d.toJS() as Record<string, unknown>,
  );
const upstreamObjects = (name: string) => fixture(name).filter((o) => o.kind !== 'Inventory');

const cnc = (connectSubnets: object[]) => ({
  apiVersion: 'k8s.ovn.org/v1',
  kind: 'ClusterNetworkConnect',
  metadata: { name: 'same-family-cidrs' },
  spec: {
    networkSelectors: [
      {
        networkSelectionType: 'ClusterUserDefinedNetworks',
        clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels: { name: 'test' } } },
      },
    ],
    connectSubnets,
    connectivity: ['PodNetwork'],
  },
});

const layer3 = (hostSubnet: number) => ({
  apiVersion: 'k8s.ovn.org/v1',
  kind: 'ClusterUserDefinedNetwork',
  metadata: { name: 'primary-mutate-host-subnet-ipv4' },
  spec: {
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'red' } },
    network: { topology: 'Layer3', layer3: { role: 'Primary', subnets: [{ cidr: '10.1.0.0/16', hostSubnet }] } },
  },
});

describe('the objects Kubernetes mode registers', () => {
  it('are the objects as written, less status and the annotations upstream writes, and every fixture passes its CRD', () => {
    for (const name of ['colored-enterprise', 'networks-layer2', 'networks-layer3', 'uplink-lab']) {
      const resources = upstreamObjects(name).map(kubernetesResource);
      expect(kubernetesRefusals(resources)).toEqual([]);
      for (const r of resources) expect(validateObject(r.object)).toEqual([]);
    }
    const annotated = {
      ...cnc([{ cidr: '192.168.0.0/16', networkPrefix: 24 }]),
      metadata: {
        name: 'c',
        annotations: { 'k8s.ovn.org/connect-router-tunnel-key': '16715780', team: 'blue' },
        labels: {},
      },
      status: { conditions: [] },
    };
    expect(kubernetesResource(annotated).object).toEqual({
      apiVersion: 'k8s.ovn.org/v1',
      kind: 'ClusterNetworkConnect',
      metadata: { name: 'c', annotations: { team: 'blue' } },
      spec: annotated.spec,
    });
  });

  it('are refused as upstream refuses them (upstream e2e: "same IP family CIDRs", "invalid CIDR - host address instead of network")', () => {
    const sameFamily = cnc([
      { cidr: '192.168.0.0/16', networkPrefix: 24 },
      { cidr: '10.0.0.0/16', networkPrefix: 24 },
    ]);
    expect(kubernetesRefusals([kubernetesResource(sameFamily)]).join('\n')).toContain(
      'When 2 CIDRs are set, they must be from different IP families',
    );
    const hostAddress = cnc([{ cidr: '192.168.0.1/16', networkPrefix: 24 }]);
    expect(kubernetesRefusals([kubernetesResource(hostAddress)]).join('\n')).toContain(
      'CIDR must be a valid network address',
    );
  });

  it('are never a kind Kubernetes mode does not register (UplinkStates are ovnkube-node’s)', () => {
    const state = {
      apiVersion: 'k8s.ovn.org/v1alpha1',
      kind: 'UplinkState',
      metadata: { name: 'red.node-1' },
      spec: { uplinkName: 'red', nodeName: 'node-1' },
    };
    expect(kubernetesRefusals([kubernetesResource(state)])[0]).toMatch(
      /^UplinkState\/red\.node-1: kind UplinkState is not registered in Kubernetes mode/,
    );
  });
});

describe('replacements', () => {
  it('replaceOnChanges lists the CRD transition-rule paths, read from the pinned schemas', () => {
    expect(transitionPaths('k8s.ovn.org/v1', 'ClusterNetworkConnect')).toEqual(['spec.connectSubnets']);
    const cudn = transitionPaths('k8s.ovn.org/v1', 'ClusterUserDefinedNetwork');
    for (const path of [
      'spec.network.topology',
      'spec.network.layer2',
      'spec.network.layer3',
      'spec.network.transport',
    ])
      expect(cudn).toContain(path);
    expect(kubernetesResource(layer3(24)).replaceOnChanges).toEqual(cudn);
  });

  it('a hostSubnet change is refused as an update (upstream e2e "IPv4: mutate hostSubnet is not allowed"), so it is a replacement and says why', () => {
    const [before, after] = [layer3(24), layer3(18)];
    expect(
      validateObject(after, { old: before })
        .map((p) => p.message)
        .join('\n'),
    ).toContain('hostSubnet is immutable');
    expect(kubernetesResource(after).replaceOnChanges).toContain('spec.network.layer3');
    expect(replacementsOf(before, after)).toEqual([
      'ClusterUserDefinedNetwork/primary-mutate-host-subnet-ipv4: spec.network.layer3 changed and upstream refuses that update ("hostSubnet is immutable"): the object is deleted, then created',
    ]);
  });

  it('names the rules an update breaks by the rules themselves, not by words in the problems', () => {
    const [before, after] = [layer3(24), layer3(18)];
    const rules = transitionRules(String(after.apiVersion), String(after.kind));
    const hostSubnet = rules.find((r) => r.message === 'hostSubnet is immutable')!;
    expect(hostSubnet.rule).toContain('oldSelf');
    expect(brokenRules(after, before)).toEqual([hostSubnet.rule]);
    expect(brokenRules(before, before)).toEqual([]);
  });

  it('a changed connectSubnets is a replacement with upstream’s message; a label change is not', () => {
    const before = cnc([{ cidr: '192.168.0.0/16', networkPrefix: 24 }]);
    const after = cnc([{ cidr: '172.31.0.0/16', networkPrefix: 24 }]);
    expect(replacementsOf(before, after)).toEqual([
      'ClusterNetworkConnect/same-family-cidrs: spec.connectSubnets changed and upstream refuses that update ("connectSubnets is immutable"): the object is deleted, then created',
    ]);
    const relabelled = { ...before, metadata: { ...before.metadata, labels: { team: 'blue' } } };
    expect(replacementsOf(before, relabelled)).toEqual([]);
  });
});
