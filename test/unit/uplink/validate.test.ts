import { describe, expect, it } from 'vitest';
import { buildCluster } from '../../../provider/model/cluster';
import { loadDocuments } from '../../../provider/model/load';
import { uplinksReplaced, validateNetworkUplinks, validateUplink } from '../../../provider/uplink';
import { uplink } from './world';

function cluster(text: string) {
  return buildCluster(loadDocuments(text).documents);
}

const inventory = (mode = 'shared') =>
  `apiVersion: ovnk/v1alpha1\nkind: Inventory\nmetadata: { name: inv }\nspec: { gatewayMode: ${mode}, nodes: [{ name: n1 }] }\n`;
const cudn = (
  name: string,
  uplinks: string,
  network = 'topology: Layer3, layer3: { role: Primary, subnets: [{ cidr: 10.1.0.0/16 }] }',
) =>
  `---\napiVersion: k8s.ovn.org/v1\nkind: ClusterUserDefinedNetwork\nmetadata: { name: ${name} }\nspec:\n  namespaceSelector: {}\n  uplinks: ${uplinks}\n  network: { ${network} }\n`;
const blueDoc =
  '---\napiVersion: k8s.ovn.org/v1alpha1\nkind: Uplink\nmetadata: { name: blue }\nspec:\n  nodeConfigs: [{ type: OVSBridge, nodeSelector: {}, hostInterfaceName: blue0 }]\n';

describe('Uplink validation', () => {
  it('a well-formed Uplink has no problems and parses from YAML', () => {
    const { cluster: c, problems } = cluster(inventory() + blueDoc);
    expect(problems).toEqual([]);
    expect(c.uplinks).toEqual([
      {
        ref: 'Uplink/blue',
        name: 'blue',
        nodeConfigs: [
          { type: 'OVSBridge', hostInterfaceName: 'blue0', nodeSelector: { matchLabels: {}, matchExpressions: [] } },
        ],
      },
    ]);
    expect(validateUplink(c.uplinks![0]!)).toEqual([]);
  });

  it('a nodeConfigs field of the wrong type is an input problem naming the path', () => {
    const { problems } = cluster(inventory() + blueDoc.replace('hostInterfaceName: blue0', 'hostInterfaceName: 7'));
    expect(problems[0]).toMatchObject({
      reason: 'InvalidField',
      path: 'Uplink/blue: spec.nodeConfigs[0].hostInterfaceName',
    });
  });

  it('no nodeConfigs and more than 64 are refused', () => {
    expect(validateUplink(uplink('u', []))[0]).toMatchObject({
      reason: 'InvalidSpec',
      path: 'Uplink/u: spec.nodeConfigs',
      message: 'spec.nodeConfigs has 0 entries: an Uplink needs 1 to 64',
    });
    expect(
      validateUplink(
        uplink(
          'u',
          Array.from({ length: 65 }, () => ({ hostInterfaceName: 'x' })),
        ),
      )[0]!.message,
    ).toContain('has 65 entries');
  });

  it('a type other than OVSBridge is refused', () => {
    expect(validateUplink(uplink('u', [{ hostInterfaceName: 'x', type: 'SRIOV' }]))[0]).toMatchObject({
      path: 'Uplink/u: spec.nodeConfigs[0].type',
      message: 'spec.nodeConfigs[0].type "SRIOV" is not supported: the only type is OVSBridge',
    });
  });

  it('interface names longer than 15, empty, or with a slash or space are refused; dots are accepted', () => {
    for (const bad of ['a234567890123456', '', 'a/b', 'a b'])
      expect(validateUplink(uplink('u', [{ hostInterfaceName: bad }]))).toHaveLength(1);
    expect(validateUplink(uplink('u', [{ hostInterfaceName: 'eth0.100' }]))).toEqual([]);
    expect(validateUplink(uplink('u', [{ hostInterfaceName: 'a/b' }]))[0]!.message).toBe(
      'spec.nodeConfigs[0].hostInterfaceName "a/b" must not contain "/" or white space',
    );
  });

  it("a selector Kubernetes cannot convert is refused with upstream's wrapping", () => {
    const u = uplink('u', [{ hostInterfaceName: 'x', matchLabels: { 'bad key!': 'v' } }]);
    expect(validateUplink(u)[0]!.message).toMatch(
      /^nodeConfig 0 has invalid nodeSelector: spec\.nodeConfigs\[0\]\.nodeSelector\.matchLabels key "bad key!"/,
    );
    const noValues = {
      ...u,
      nodeConfigs: [
        {
          ...u.nodeConfigs[0]!,
          nodeSelector: { matchExpressions: [{ key: 'a', operator: 'In' as const, values: [] }] },
        },
      ],
    };
    expect(validateUplink(noValues)[0]!.message).toContain('operator In needs at least one value');
  });
});

describe('CUDN spec.uplinks validation', () => {
  const check = (text: string) => {
    const { cluster: c } = cluster(text);
    return validateNetworkUplinks(c.networks[0]!, c.inventory, new Map((c.uplinks ?? []).map((u) => [u.name, u])));
  };

  it('one existing Uplink on a primary Layer3 CUDN is accepted', () => {
    expect(check(inventory() + blueDoc + cudn('t', '[blue]'))).toEqual([]);
  });

  it('two entries and a name with a dot are refused', () => {
    const problems = check(inventory() + blueDoc + cudn('t', '[blue, blue.x]'));
    expect(problems.map((p) => p.path)).toEqual([
      'ClusterUserDefinedNetwork/t: spec.uplinks',
      'ClusterUserDefinedNetwork/t: spec.uplinks[1]',
      'ClusterUserDefinedNetwork/t: spec.uplinks[1]',
    ]);
  });

  it('secondary networks and EVPN are refused with the CRD messages', () => {
    expect(
      check(
        inventory() +
          blueDoc +
          cudn('t', '[blue]', 'topology: Layer2, layer2: { role: Secondary, subnets: [10.1.0.0/16] }'),
      )[0]!.message,
    ).toBe('spec.uplinks is supported only for primary Layer2 and Layer3 networks (this one is secondary Layer2)');
    expect(
      check(
        inventory() +
          blueDoc +
          cudn(
            't',
            '[blue]',
            'topology: Layer3, transport: EVPN, layer3: { role: Primary, subnets: [{ cidr: 10.1.0.0/16 }] }',
          ),
      )[0],
    ).toMatchObject({
      reason: 'UplinkUnsupportedTransport',
      message: 'spec.uplinks is not supported with EVPN transport',
    });
  });

  it("local gateway mode and a missing Uplink are refused in upstream's words", () => {
    expect(check(inventory('local') + blueDoc + cudn('t', '[blue]'))[0]).toMatchObject({
      reason: 'UplinkUnsupportedGatewayMode',
      message: 'Uplink requires shared gateway mode, got local',
    });
    expect(check(inventory() + cudn('t', '[red]'))[0]).toMatchObject({
      reason: 'UplinkNotFound',
      path: 'ClusterUserDefinedNetwork/t: spec.uplinks[0]',
      message: 'Uplink red is missing',
    });
  });

  it('a changed uplinks list means the CUDN is replaced', () => {
    expect(uplinksReplaced(['blue'], ['blue'])).toBe(false);
    expect(uplinksReplaced(['blue'], ['red'])).toBe(true);
    expect(uplinksReplaced(undefined, ['red'])).toBe(true);
  });
});
