import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LabInventoryDocument } from '../../../../lab/inventory';
import { validateObject } from '../../../../provider/model/crd';
import { parseInventory } from '../../../../provider/model/inventory';
import { loadDocuments } from '../../../../provider/model/load';
import type { Problem } from '../../../../provider/model/problem';

const root = join(__dirname, '../../../..');

/** An Inventory setting every field provider/model/inventory.ts and targets.ts read. */
const everyField = {
  apiVersion: 'ovnk/v1alpha1',
  kind: 'Inventory',
  metadata: { name: 'full', labels: { team: 'net' }, annotations: { 'example.com/note': 'x' } },
  spec: {
    zones: 'per-node',
    gatewayMode: 'local',
    mtu: 1500,
    ipFamilies: ['IPv4', 'IPv6'],
    serviceCIDRs: ['10.96.0.0/16', 'fd00:10:96::/112'],
    masqueradeSubnets: ['169.254.169.0/29', 'fd69::/125'],
    clusterSubnets: ['10.128.0.0/14', 'fd00:10:128::/48'],
    defaultJoinSubnets: ['100.64.0.0/16', 'fd98::/64'],
    namespaces: [{ name: 'blue', labels: { tenant: 'blue' } }],
    nodes: [
      {
        name: 'ovn-worker',
        id: 2,
        chassisId: 'c1',
        labels: { 'kubernetes.io/hostname': 'ovn-worker' },
        gatewayBridge: 'breth0',
        hostSubnets: { cluster_udn_blue: ['10.1.2.0/24'] },
        nodeIPs: ['172.18.0.2/16'],
        gatewayMac: '0a:58:ac:12:00:02',
        gatewayNextHops: ['172.18.0.1'],
        networks: ['blue'],
      },
    ],
    services: [
      { namespace: 'blue', name: 'web', clusterIPs: ['10.96.0.10'], ports: [{ protocol: 'TCP', port: 80 }] },
      { namespace: 'blue', name: 'headless', clusterIPs: ['None'], ports: [{ port: 53, protocol: 'UDP' }] },
    ],
    pods: [{ name: 'blue-a', namespace: 'blue', node: 'ovn-worker' }],
    targets: {
      zones: { 'ovn-worker': { nb: 'ssl:10.0.0.2:6641' } },
      nodes: {
        'ovn-worker': {
          host: '10.0.0.2',
          port: 22,
          user: 'root',
          hostKey: 'SHA256:x',
          keyPath: '/k',
          ovsDb: 'unix:/o',
        },
      },
    },
  },
};

const paths = (problems: Problem[]) => problems.map((p) => p.path);

describe('the Inventory schema', () => {
  it('accepts every field the Inventory parser reads, and the parser reads them without a problem', () => {
    expect(validateObject(everyField)).toEqual([]);
    const [doc] = loadDocuments(JSON.stringify(everyField)).documents;
    const problems: Problem[] = [];
    const inventory = parseInventory(doc!, problems);
    expect(problems).toEqual([]);
    expect(inventory.nodes[0]).toMatchObject({ gatewayMac: '0a:58:ac:12:00:02', networks: ['blue'] });
    expect(inventory.targets?.nodes['ovn-worker']?.ovsDb).toBe('unix:/o');
  });

  it('accepts what `ovnk lab inventory` writes (targets.zones.*.sb included)', () => {
    const lab: LabInventoryDocument = {
      apiVersion: 'ovnk/v1alpha1',
      kind: 'Inventory',
      metadata: { name: 'ovnk' },
      spec: {
        zones: 'central',
        nodes: [
          {
            name: 'ovn-worker',
            id: 2,
            chassisId: 'c',
            gatewayBridge: 'breth0',
            nodeIPs: ['198.18.0.2/24'],
            gatewayMac: '02:00:00:00:00:02',
            gatewayNextHops: ['198.18.0.1'],
            labels: { 'uplink.ovnk.io/group': 'a' },
          },
        ],
        targets: {
          zones: { central: { nb: 'unix:/run/nb.sock', sb: 'unix:/run/sb.sock' } },
          nodes: {
            'ovn-worker': {
              host: '198.19.1.11',
              port: 22,
              user: 'root',
              hostKey: 'SHA256:k',
              keyPath: '/k',
              ovsDb: 'unix:/o',
            },
          },
        },
      },
    };
    expect(validateObject(lab)).toEqual([]);
  });

  it('refuses misspelled, mistyped and malformed fields, every one at once', () => {
    const bad = structuredClone(everyField) as any;
    bad.spec.nodes[0].gatewaybridge = 'breth0';
    bad.spec.nodes.push({ name: 'ovn-worker' });
    bad.spec.clusterSubnets = ['10.128.0.1/14'];
    bad.spec.zones = 'central-ish';
    bad.spec.targets.nodes['ovn-worker'].port = '22';
    expect(paths(validateObject(bad))).toEqual([
      'Inventory/full: spec.zones',
      'Inventory/full: spec.nodes[0].gatewaybridge',
      'Inventory/full: spec.targets.nodes.ovn-worker.port',
      'Inventory/full: spec.clusterSubnets[0]',
      'Inventory/full: spec.nodes[1]',
    ]);
  });
});

describe('the shipped files', () => {
  const topologies = [
    ...readdirSync(join(root, 'stacks'))
      .filter((f) => f.endsWith('.yaml') && !f.startsWith('Pulumi.'))
      .map((f) => `stacks/${f}`),
    ...readdirSync(join(root, 'stacks/topologies')).map((f) => `stacks/topologies/${f}`),
    ...readdirSync(join(root, 'test/fixtures'))
      .filter((f) => f.endsWith('.yaml') && f !== 'uplink-invalid.yaml')
      .map((f) => `test/fixtures/${f}`),
  ];

  it.each(topologies)('%s validates against its schemas', (file) => {
    expect(loadDocuments(readFileSync(join(root, file), 'utf8')).problems).toEqual([]);
  });

  it('test/fixtures/uplink-invalid.yaml is refused, as it means to be, for its too-long interface name', () => {
    const { problems } = loadDocuments(readFileSync(join(root, 'test/fixtures/uplink-invalid.yaml'), 'utf8'));
    expect(paths(problems)).toEqual(['Uplink/long: spec.nodeConfigs[0].hostInterfaceName']);
  });
});
