import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, topologyArgs } from './fixtures';
import {
  installMocks,
  isKnown,
  recordOptions,
  refusals,
  refusedQuietly,
  type Registered,
  type SentOptions,
  settle,
  valueOf,
} from './mocks';

// Kubernetes mode under Pulumi's mocks: the components register upstream's objects as
// @pulumi/kubernetes custom resources (no Northbound or SSH resource at all), ClusterPrediction
// answers with its real check, and what the "kubernetes provider" reads back (the mock's state)
// is compared with the prediction.
const CNC = 'kubernetes:k8s.ovn.org/v1:ClusterNetworkConnect';
const CUDN = 'kubernetes:k8s.ovn.org/v1:ClusterUserDefinedNetwork';
const UDN = 'kubernetes:k8s.ovn.org/v1:UserDefinedNetwork';

let registered: Registered[];
let options: Map<string, SentOptions>;
const liveCnc: Record<string, unknown> = {};

beforeAll(() => {
  registered = installMocks(
    false,
    () => true,
    ({ type, name }) => (type === CNC && liveCnc[name] ? (liveCnc[name] as Record<string, unknown>) : {}),
  );
  options = recordOptions();
});

const ofCluster = (name: string) => registered.filter((r) => r.name.startsWith(`${name}-`));

async function cluster(name: string, args = topologyArgs('colored-enterprise', 'per-node')) {
  const { Cluster, kubernetesTarget } = await import('../../components');
  const made = new Cluster(name, { ...args, target: kubernetesTarget() });
  await valueOf(made.kubernetes!.divergence);
  await settle(() => ofCluster(name).length, 6);
  return made;
}

describe('a Cluster in Kubernetes mode', () => {
  it('registers each network and connect as upstream object, parented to its component, and nothing that writes Northbound or hosts', async () => {
    const made = await cluster('k1');
    const types = ofCluster('k1')
      .map((r) => r.type)
      .sort();
    expect(types).toEqual(
      [
        ...[CUDN, CUDN, CNC, UDN, 'pulumi-nodejs:dynamic/ovnk:ClusterPrediction'],
        ...['ovnk:connect:NetworkConnect', 'ovnk:network:Layer2Network', 'ovnk:network:Layer3Network'],
        'ovnk:network:Layer3Network',
      ].sort(),
    );
    const args = topologyArgs('colored-enterprise', 'per-node');
    const cnc = ofCluster('k1').find((r) => r.type === CNC)!;
    expect(cnc.inputs).toEqual({ ...args.connects[0], metadata: { name: 'colored-enterprise' } });
    const yellow = ofCluster('k1').find((r) => r.type === UDN)!;
    expect(yellow.inputs.metadata).toEqual({ name: 'yellow-network', namespace: 'yellow' });
    expect(options.get('k1-colored-enterprise-object')!.parent).toBe(
      await valueOf(made.connects['colored-enterprise']!.urn),
    );
    expect(options.get('k1-yellow/yellow-network-object')!.parent).toBe(
      await valueOf(made.networks['yellow/yellow-network']!.urn),
    );
  });

  it('replaces a connect and a network the way upstream requires: replaceOnChanges on the CRD transition-rule paths, deleting first', async () => {
    await cluster('k2');
    const cnc = options.get('k2-colored-enterprise-object')!;
    expect(cnc.replaceOnChanges).toEqual(['spec.connectSubnets']);
    expect(cnc.deleteBeforeReplace).toBe(true);
    const blue = options.get('k2-blue-network-object')!;
    expect(blue.replaceOnChanges).toContain('spec.network.topology');
    expect(blue.replaceOnChanges).toContain('spec.network.layer3');
    expect(blue.deleteBeforeReplace).toBe(true);
  });

  it('makes every custom resource wait for ClusterPrediction, so a refused topology never reaches the cluster', async () => {
    await cluster('k3');
    const prediction = `urn:pulumi:test::ovnk-pulumi::ovnk:cluster:Cluster$pulumi-nodejs:dynamic/ovnk:ClusterPrediction::k3-allocations`;
    for (const r of ofCluster('k3').filter((r) => r.type.startsWith('kubernetes:')))
      expect(options.get(r.name)!.dependencies).toContain(prediction);
  });

  it('outputs the predicted allocations in upstream annotation formats, known at preview', async () => {
    const made = await cluster('k4');
    const connect = made.connects['colored-enterprise']!;
    const annotations = await valueOf(connect.annotations);
    expect(annotations['k8s.ovn.org/connect-router-tunnel-key']).toBe('16715780');
    expect(JSON.parse(annotations['k8s.ovn.org/network-connect-subnet']!)).toHaveProperty('layer2_3');
    const yellow = await valueOf(made.networks['yellow/yellow-network']!.annotations!);
    expect(yellow).toEqual({
      'k8s.ovn.org/network-name': 'yellow_yellow-network',
      'k8s.ovn.org/network-id': '3',
      'k8s.ovn.org/tunnel-keys': '[16711686,16715779]',
    });
    const nodes = await valueOf(made.kubernetes!.nodeAnnotations);
    expect(nodes['ovn-worker']).toEqual({
      'k8s.ovn.org/node-id': '3',
      'k8s.ovn.org/node-subnets':
        '{"cluster_udn_blue-network":["103.103.1.0/24","fd00:103:0:1::/64"],"cluster_udn_green-network":["104.104.1.0/24","fd00:104:0:1::/64"]}',
    });
  });
});

describe('divergence in Kubernetes mode', () => {
  it('lists an allocation upstream wrote differently and a False condition; what is not written yet is pending', async () => {
    liveCnc['kd-colored-enterprise-object'] = {
      metadata: {
        name: 'colored-enterprise',
        annotations: {
          'k8s.ovn.org/connect-router-tunnel-key': '16715790',
          'k8s.ovn.org/network-connect-subnet':
            '{"layer2_3": {"ipv6": "fd01::200/127", "ipv4": "192.168.2.0/31"}, "layer3_1": {"ipv4": "192.168.0.0/24", "ipv6": "fd01::/120"}, "layer3_2": {"ipv4": "192.168.1.0/24", "ipv6": "fd01::100/120"}}',
        },
      },
      status: {
        conditions: [{ type: 'Accepted', status: 'False', reason: 'ResourceAllocationFailed', message: 'no room' }],
      },
    };
    const made = await cluster('kd');
    expect(await valueOf(made.kubernetes!.divergence)).toEqual([
      'ClusterNetworkConnect/colored-enterprise: allocation differs: k8s.ovn.org/connect-router-tunnel-key is 16715790, predicted 16715780',
      'ClusterNetworkConnect/colored-enterprise: condition Accepted False with reason ResourceAllocationFailed: no room',
    ]);
    expect(await valueOf(made.kubernetes!.pending)).toEqual([
      'ClusterUserDefinedNetwork/blue-network: no status conditions written yet',
      'ClusterUserDefinedNetwork/green-network: no status conditions written yet',
      'UserDefinedNetwork/yellow/yellow-network: no status conditions written yet',
    ]);
  });

  it('lists nothing when upstream wrote exactly the prediction and every condition is True', async () => {
    const conditions = [{ type: 'Accepted', status: 'True', reason: 'ResourceAllocationSucceeded' }];
    const { pulumiKinds } = await import('../../provider/runtime/pulumi');
    const args = topologyArgs('colored-enterprise', 'per-node');
    const checked = await pulumiKinds.ClusterPrediction.check({}, { owner: 'ovnk-pulumi.test/cluster', ...args });
    const predicted = (checked.inputs!.annotations as { connects: Record<string, Record<string, string>> }).connects;
    liveCnc['ke-colored-enterprise-object'] = {
      metadata: { annotations: predicted['colored-enterprise'] },
      status: { conditions },
    };
    const made = await cluster('ke');
    expect(await valueOf(made.kubernetes!.divergence)).toEqual([]);
  });
});

describe('secondary networks in Kubernetes mode', () => {
  it('registers secondary Layer3 and Layer2 networks and a Localnet one as upstream objects, validated by the CRDs', async () => {
    const args = topologyArgs('networks-secondary', 'per-node');
    const made = await cluster('ks', args);
    const types = ofCluster('ks')
      .map((r) => r.type)
      .filter((t) => t.startsWith('ovnk:network:') || t.startsWith('kubernetes:'))
      .sort();
    expect(types).toEqual(
      [
        ...[CUDN, CUDN, CUDN, UDN],
        ...['ovnk:network:Layer2Network', 'ovnk:network:Layer3Network', 'ovnk:network:Layer3Network'],
        'ovnk:network:LocalnetNetwork',
      ].sort(),
    );
    const physical = ofCluster('ks').find(
      (r) => r.type === CUDN && (r.inputs as { metadata: { name: string } }).metadata.name === 'physical',
    )!;
    expect((physical.inputs as { spec: { network: { localnet: unknown } } }).spec.network.localnet).toMatchObject({
      role: 'Secondary',
      physicalNetworkName: 'physnet-lab',
    });
    expect(await valueOf(made.networks['physical']!.routerName)).toBe('');
    expect(await valueOf(made.networks['lab/teal']!.routerName)).toBe('');
    expect(await valueOf(made.networks['purple']!.routerName)).toBe('cluster_udn_purple_ovn_cluster_router');
  });

  it('refuses a Localnet network with the primary role before registering anything, as the CRD does', async () => {
    const args = structuredClone(topologyArgs('networks-secondary', 'per-node'));
    const physical = args.networks.find((n) => n.metadata.name === 'physical')!;
    (physical.spec as unknown as { network: { localnet: { role: string } } }).network.localnet.role = 'Primary';
    const before = registered.length;
    const { Cluster, kubernetesTarget } = await import('../../components');
    expect(() => new Cluster('ksr', { ...args, target: kubernetesTarget() })).toThrow(
      /ClusterUserDefinedNetwork\/physical: spec\.network\.localnet\.role/,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(registered.length).toBe(before);
  });
});

describe('refusals in Kubernetes mode', () => {
  it('refuses an object the API server would refuse before any resource is registered, naming the field and the CRD rule', async () => {
    const args = structuredClone(topologyArgs('colored-enterprise', 'per-node'));
    args.connects[0]!.spec.connectSubnets = [{ cidr: '192.168.0.0/16', networkPrefix: 33 }];
    const before = registered.length;
    const { Cluster, kubernetesTarget } = await import('../../components');
    expect(() => new Cluster('kr', { ...args, target: kubernetesTarget() })).toThrow(
      /Cluster kr: the API server would refuse .*\n {2}ClusterNetworkConnect\/colored-enterprise: spec\.connectSubnets\[0\]/,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(registered.length).toBe(before);
  });

  it('refuses a topology its allocation refuses in ClusterPrediction check, and no custom resource is ever registered', async () => {
    const args = structuredClone(topologyArgs('colored-enterprise', 'per-node'));
    // valid for the CRD, but the connect subnet holds a network's own pod subnet: ConnectSubnetOverlap/Conflict
    args.connects[0]!.spec.connectSubnets = [
      { cidr: '103.103.0.0/16', networkPrefix: 24 },
      { cidr: 'fd01::/112', networkPrefix: 120 },
    ];
    const { Cluster, kubernetesTarget } = await import('../../components');
    refusedQuietly.add('kq-allocations');
    new Cluster('kq', { ...args, target: kubernetesTarget() });
    await settle(() => refusals.length, 1);
    expect(refusals[0]!.message).toMatch(/connects\[0\]\.spec\.connectSubnets.*: ConnectSubnetConflict: /);
    await new Promise((r) => setTimeout(r, 200));
    expect(ofCluster('kq').filter((r) => r.type.startsWith('kubernetes:'))).toEqual([]);
  });
});

describe('@pulumi/kubernetes as an optional peer dependency', () => {
  it('says how to install it when Kubernetes mode cannot load it', async () => {
    const { loadKubernetes } = await import('../../components/internal');
    const missing = () => {
      throw Object.assign(new Error("Cannot find module '@pulumi/kubernetes'"), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => loadKubernetes(missing)).toThrow(
      /Kubernetes mode \(target kind "kubernetes"\) needs @pulumi\/kubernetes, an optional peer dependency of ovnk-pulumi: install it .*npm install @pulumi\/kubernetes/,
    );
  });

  it('passes a given kubernetes Provider to every custom resource', async () => {
    const k8s = await import('@pulumi/kubernetes');
    const { Cluster, kubernetesTarget } = await import('../../components');
    const provider = new k8s.Provider('kp-provider', { context: 'kind-ovn' });
    const made = new Cluster('kp', {
      ...topologyArgs('colored-enterprise', 'per-node'),
      target: kubernetesTarget(provider),
    });
    await valueOf(made.kubernetes!.divergence);
    const ref = `${await valueOf(provider.urn)}::${await valueOf(provider.id)}`;
    expect(options.get('kp-colored-enterprise-object')!.provider).toBe(ref);
    expect(await isKnown(made.connects['colored-enterprise']!.tunnelKey)).toBe(true);
  });
});

describe('Uplinks and RouteAdvertisements in Kubernetes mode', () => {
  it('registers each Uplink and RouteAdvertisements as upstream object, no UplinkState resource, and names the UplinkStates ovnkube-node will write', async () => {
    const { Cluster, kubernetesTarget, topologyFromFiles } = await import('../../components');
    const nodes = [
      { name: 'ovn-worker', labels: { 'uplink.ovnk.io/group': 'a' } },
      { name: 'ovn-worker2', labels: { 'uplink.ovnk.io/group': 'a' } },
      { name: 'ovn-worker3', labels: { 'uplink.ovnk.io/group': 'b' } },
    ];
    const topology = topologyFromFiles([join(repoRoot, 'stacks', 'vrf-lite.yaml')], { nodes, zones: 'per-node' });
    const made = new Cluster('ku', { ...topology, target: kubernetesTarget() });
    await valueOf(made.kubernetes!.divergence);
    await settle(() => ofCluster('ku').filter((r) => r.type.startsWith('kubernetes:')).length, 5);
    const objects = ofCluster('ku').filter((r) => r.type.startsWith('kubernetes:'));
    expect(objects.map((r) => r.type).sort()).toEqual([
      'kubernetes:k8s.ovn.org/v1:ClusterUserDefinedNetwork',
      'kubernetes:k8s.ovn.org/v1:ClusterUserDefinedNetwork',
      'kubernetes:k8s.ovn.org/v1:RouteAdvertisements',
      'kubernetes:k8s.ovn.org/v1alpha1:Uplink',
      'kubernetes:k8s.ovn.org/v1alpha1:Uplink',
    ]);
    expect(ofCluster('ku').some((r) => r.type.endsWith(':UplinkState'))).toBe(false);
    const uplinks = Object.values(made.uplinks);
    expect(uplinks.map((u) => u.uplinkStateNames)).toContainEqual(
      expect.objectContaining({ 'ovn-worker': expect.stringMatching(/^[a-z0-9-]+\.ovn-worker$/) }),
    );
    const red = made.networks['red']!;
    // a dependency on the Uplink component is one on its children: the red CUDN waits for br-red's object
    expect(options.get('ku-red-object')!.dependencies).toContain(
      await valueOf(made.uplinks['br-red']!.kubernetes!.resource.urn),
    );
    expect(options.get('ku-ra-blue-ra')!.parent).toBe(await valueOf(made.urn));
    expect(await isKnown(red.networkId)).toBe(true);
  });
});
