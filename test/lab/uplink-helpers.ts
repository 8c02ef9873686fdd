/** Helpers of the Uplink lab tests: the fixture's cluster filled from the test lab, node commands over SSH. */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { inventoryOf, type LabNodeStatus, type LabStatus } from '../../lab';
import { HostPool } from '../../provider/host';
import { buildCluster, type Cluster } from '../../provider/model/cluster';
import { loadDocuments } from '../../provider/model/load';
import { fillInventory } from '../../provider/runtime/inventoryMerge';

export const fixture = path.resolve(__dirname, '../fixtures/uplink-lab.yaml');

/** The cluster of YAML text, with nodes and targets from the lab (the file wins). */
export function labCluster(lab: LabStatus, text = readFileSync(fixture, 'utf8')): Cluster {
  const loaded = loadDocuments(text);
  if (loaded.problems.length > 0) throw new Error(loaded.problems[0]!.message);
  const built = buildCluster(
    fillInventory(loaded.documents, inventoryOf(lab) as unknown as { spec: Record<string, unknown> }),
  );
  if (built.problems.length > 0) throw new Error(built.problems[0]!.message);
  return built.cluster;
}

/**
 * The lab's Inventory without its node targets' key files, as a Pulumi program gives it (keys come
 * from stack config).
 */
export function withoutKeyPaths(inventory: object): { spec: Record<string, unknown> } {
  const copy = structuredClone(inventory) as { spec: { targets?: { nodes?: Record<string, { keyPath?: string }> } } };
  for (const target of Object.values(copy.spec.targets?.nodes ?? {})) delete target.keyPath;
  return copy as unknown as { spec: Record<string, unknown> };
}

const pool = new HostPool();

/** Run argv on a lab node over SSH; fails on a non-zero exit. */
export async function onNode(node: LabNodeStatus, ...argv: string[]): Promise<string> {
  const runner = pool.runner({
    host: node.ssh.host,
    port: node.ssh.port,
    user: node.ssh.user,
    keyPath: node.ssh.keyPath,
    hostKey: { fingerprint: node.ssh.hostKeyFingerprint },
  });
  const result = await runner.run(argv);
  if (result.exitCode !== 0)
    throw new Error(`${argv.join(' ')} on ${node.name}: exit ${result.exitCode}: ${result.stderr}`);
  return result.stdout.trim();
}

export async function closeNodes(): Promise<void> {
  await pool.closeAll();
}

export async function bridgeMappings(node: LabNodeStatus): Promise<string> {
  return (await onNode(node, 'ovs-vsctl', 'get', 'Open_vSwitch', '.', 'external_ids:ovn-bridge-mappings')).replace(
    /^"|"$/g,
    '',
  );
}

/** The node's whole Open_vSwitch external_ids, to put back after a test. */
export async function externalIds(node: LabNodeStatus): Promise<string> {
  return onNode(node, 'ovs-vsctl', 'get', 'Open_vSwitch', '.', 'external_ids');
}

export async function restoreExternalIds(node: LabNodeStatus, saved: string): Promise<void> {
  await onNode(node, 'ovs-vsctl', 'set', 'Open_vSwitch', '.', `external_ids=${saved}`);
}

/** A link's MAC in the node's network namespace. */
export async function linkMac(node: LabNodeStatus, link: string): Promise<string> {
  const shown = JSON.parse(await onNode(node, 'ip', '-j', 'link', 'show', 'dev', link)) as { address: string }[];
  return shown[0]!.address;
}

/**
 * Whether the bridge shows `port`'s MAC as a static entry on that port (its ofport), VLAN 0, as
 * upstream's SetStaticFDBEntry writes it (pkg/util/ovs.go).
 */
export async function fdbPinned(node: LabNodeStatus, { bridge, port }: { bridge: string; port: string }) {
  const mac = await linkMac(node, port);
  const ofport = (await onNode(node, 'ovs-vsctl', 'get', 'Interface', port, 'ofport')).trim();
  const shown = await onNode(node, 'ovs-appctl', 'fdb/show', bridge);
  return new RegExp(`^\\s*${ofport}\\s+0\\s+${mac}\\s+static\\s*$`, 'm').test(shown);
}

/** Remove that static entry by hand (an operator, or what an ovs-vswitchd restart does to every one). */
export async function fdbUnpin(node: LabNodeStatus, { bridge, port }: { bridge: string; port: string }) {
  await onNode(node, 'ovs-appctl', 'fdb/del', bridge, '0', await linkMac(node, port)).catch(() => undefined);
}

/** An Uplink document selecting one node by name label `test.ovnk.io/node`. */
export function uplinkDoc(
  name: string,
  configs: { node?: string; iface: string; labels?: Record<string, string> }[],
): string {
  const items = configs.map((c) => {
    const labels = c.labels ?? (c.node ? { 'test.ovnk.io/node': c.node } : {});
    return `    - type: OVSBridge\n      nodeSelector: { matchLabels: ${JSON.stringify(labels)} }\n      hostInterfaceName: ${c.iface}`;
  });
  return `---\napiVersion: k8s.ovn.org/v1alpha1\nkind: Uplink\nmetadata:\n  name: ${name}\nspec:\n  nodeConfigs:\n${items.join('\n')}\n`;
}
