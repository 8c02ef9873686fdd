import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { inventoryOf } from '../../lab';
import { validateObject } from '../../provider/model/crd';
import { loadDocuments } from '../../provider/model/load';
import { fillInventory } from '../../provider/runtime/inventoryMerge';
import { uplinkStateInputs, uplinkStateNodes, type YamlObject } from '../../provider/runtime/pulumi';
import {
  bridgeMappings,
  closeNodes,
  externalIds,
  fdbPinned,
  fdbUnpin,
  fixture,
  linkMac,
  onNode,
  restoreExternalIds,
  withoutKeyPaths,
} from '../lab/uplink-helpers';
import { useTestHost } from '../support/hostFixture';
import { dynamicUrn, type Props } from '../support/pulumiHost';

// UplinkState through the engine's host against the lab's nodes (real sshd, real Open_vSwitch):
// one resource per node the `red` Uplink selects; check previews the mappings, create writes them,
// read discovers afresh (refresh sees a removed mapping), update repairs, delete removes only ours.
const lab = inject('lab');
const OWNER = 'ovnk-pulumi.uplink-test';
let saved: string[] = [];

/**
 * The fixture's objects with the inventory's nodes and targets filled from the lab, without the
 * targets' key file (Pulumi would store it in the state): the key comes from stack config.
 */
function objects(): { inventory: YamlObject; uplinks: YamlObject[]; networks: YamlObject[] } {
  const loaded = loadDocuments(readFileSync(fixture, 'utf8'));
  const docs = fillInventory(loaded.documents, withoutKeyPaths(inventoryOf(lab))).map((d) => d.body as YamlObject);
  return {
    inventory: docs.find((d) => d.kind === 'Inventory')!,
    uplinks: docs.filter((d) => d.kind === 'Uplink'),
    networks: docs.filter((d) => d.kind === 'ClusterUserDefinedNetwork'),
  };
}

const conditionsOf = (props: Props) => (props.uplinkState as { status: { conditions: unknown[] } }).status.conditions;

// The nodes' external_ids are saved before the host starts and restored after it stopped.
beforeAll(async () => {
  saved = await Promise.all(lab.nodes.map(externalIds));
  // files before this one on the shared lab may have left entries whose records they put back
  await Promise.all(lab.nodes.map((n) => fdbUnpin(n, { bridge: 'br-red', port: 'red0' })));
});
afterAll(async () => {
  await Promise.all(lab.nodes.map((n, i) => restoreExternalIds(n, saved[i]!)));
  await closeNodes();
});
const { host, shim: shims } = useTestHost(['UplinkState'], () => ({ 'ovnk:sshKeyFile': lab.nodes[0]!.ssh.keyPath }));

describe('UplinkState through the host, one per selected node', () => {
  const { inventory, uplinks, networks } = objects();
  const red = uplinks.find((u) => u.metadata?.name === 'red')!;
  const created: Record<string, { urn: string; id: string; outs: Props }> = {};
  const propsOf = (node: string) => ({
    owner: `${OWNER}/uplink/red/${node}`,
    ...uplinkStateInputs(inventory, red, networks, node),
  });

  it('the Uplink selects every lab node, and each resource holds only its own node', () => {
    expect(uplinkStateNodes(inventory, red)).toEqual(lab.nodes.map((n) => n.name).sort());
    const props = propsOf(lab.nodes[0]!.name);
    expect((props.inventory.spec as { nodes: unknown[] }).nodes).toHaveLength(1);
    expect(Object.keys((props.inventory.spec as { targets: { nodes: object } }).targets.nodes)).toEqual([
      lab.nodes[0]!.name,
    ]);
    expect(props.networks.map((n) => n.metadata?.name)).toEqual(['tenant-red']);
  });

  it('check previews the physical networks and the UplinkState name; create writes the mapping on each node', async () => {
    for (const node of lab.nodes) {
      const urn = dynamicUrn('UplinkState', `red.${node.name}`);
      const checked = await host.check(urn, {}, { __provider: shims.UplinkState, ...propsOf(node.name) });
      expect(checked.failures).toEqual([]);
      expect(checked.inputs.physicalNetworks).toEqual(['cluster_udn_tenant-red']);
      expect(checked.inputs.stateName).toBe(`red.${node.name}`);
      const result = await host.create(urn, checked.inputs);
      created[node.name] = { urn, id: result.id, outs: result.properties };
      for (const state of [checked.inputs, result.properties]) {
        expect(JSON.stringify(state)).not.toContain('keyPath');
        expect(JSON.stringify(state)).not.toContain(node.ssh.keyPath);
      }
      expect(await bridgeMappings(node)).toContain('cluster_udn_tenant-red:br-red');
      expect(result.properties.mappings).toEqual(['cluster_udn_tenant-red:br-red']);
      expect((result.properties.uplinkState as { spec: { nodeName: string } }).spec.nodeName).toBe(node.name);
      // the output is an UplinkState upstream's CRD accepts: every condition has its lastTransitionTime
      expect(validateObject(result.properties.uplinkState)).toEqual([]);
    }
  });

  it('read discovers no drift and the diff with the same inputs is empty', async () => {
    for (const node of lab.nodes) {
      const r = created[node.name]!;
      const read = await host.read(r.id, r.urn, r.outs);
      expect({ node: node.name, drift: read.properties.drift }).toEqual({
        node: node.name,
        drift: { lines: [], count: 0 },
      });
      // no status changed since create: the node kept each condition's lastTransitionTime
      expect(conditionsOf(read.properties)).toEqual(conditionsOf(r.outs));
      expect(validateObject(read.properties.uplinkState)).toEqual([]);
      const again = await host.check(r.urn, r.outs, { __provider: shims.UplinkState, ...propsOf(node.name) });
      expect((await host.diff(r.id, r.urn, read.properties, again.inputs)).changes).toBe(1);
    }
  });

  it('a mapping removed by hand shows as drift on refresh, and update writes it back', async () => {
    const node = lab.nodes[1]!;
    const r = created[node.name]!;
    await onNode(node, 'ovs-vsctl', 'set', 'Open_vSwitch', '.', 'external_ids:ovn-bridge-mappings=physnet:breth0');
    const read = await host.read(r.id, r.urn, r.outs);
    expect(read.properties.drift).toEqual({
      lines: [`node ${node.name}: ovn-bridge-mappings lacks cluster_udn_tenant-red:br-red`],
      count: 1,
    });
    expect((await host.diff(r.id, r.urn, read.properties, r.outs)).changes).toBe(2);
    const updated = await host.update(r.id, r.urn, read.properties, r.outs);
    expect(await bridgeMappings(node)).toContain('cluster_udn_tenant-red:br-red');
    expect(((await host.read(r.id, r.urn, updated.properties)).properties.drift as { count: number }).count).toBe(0);
  });

  it('a static FDB entry ovs-vswitchd lost shows as drift on refresh, and update pins it back (gateway_udn.go configureUplinkStaticFDBEntry)', async () => {
    const node = lab.nodes[2]!;
    const r = created[node.name]!;
    const red = { bridge: 'br-red', port: 'red0' };
    expect(await fdbPinned(node, red)).toBe(true);
    await fdbUnpin(node, red);
    const read = await host.read(r.id, r.urn, r.outs);
    expect(read.properties.drift).toEqual({
      lines: [
        `node ${node.name}: bridge br-red: static FDB entry ${await linkMac(node, 'red0')} on red0 (VLAN 0) missing`,
      ],
      count: 1,
    });
    const updated = await host.update(r.id, r.urn, read.properties, r.outs);
    expect(await fdbPinned(node, red)).toBe(true);
    expect(((await host.read(r.id, r.urn, updated.properties)).properties.drift as { count: number }).count).toBe(0);
  });

  it('a node the inventory does not have is refused by check, naming node', async () => {
    const { failures } = await host.check(
      dynamicUrn('UplinkState', 'red.x'),
      {},
      { __provider: shims.UplinkState, ...propsOf('nowhere'), node: 'nowhere' },
    );
    expect(failures).toContainEqual({
      property: 'node',
      reason: 'InvalidField: node nowhere is not a node of the inventory',
    });
  });

  it('delete removes only the mappings and static FDB entries this owner wrote, and again is a no-op', async () => {
    for (const node of lab.nodes) {
      const r = created[node.name]!;
      await host.delete(r.id, r.urn, r.outs);
      await host.delete(r.id, r.urn, r.outs);
      expect(await bridgeMappings(node)).not.toContain('cluster_udn_tenant-red');
      expect(await bridgeMappings(node)).toContain('physnet:breth0');
      expect(await fdbPinned(node, { bridge: 'br-red', port: 'red0' })).toBe(false);
    }
  });
});
