/**
 * The lab's Uplink bridges (OKEP-6019), next to `breth0` on every node: `br-blue` and `br-red`,
 * each a netdev bridge with a physical uplink port (a veth whose peer sits in the fabric
 * namespace) and an internal host interface carrying an address and a default route (metrics 200
 * and 201, so the node's own default via breth0 stays first). Nodes come in two labelled groups with
 * different host interface names (group a: `blue0`, group b: `blueb0`); the second node tags its
 * blue host port with VLAN 100; the third node's blue physical uplink has MTU 1300 (below the
 * default network MTU 1400). Each Uplink bridge's segment has its external host in the fabric
 * namespace: a Linux bridge (`xblue`, `xred`) joining every node's physical uplink peer and
 * holding the segment's gateway address (203.0.113.1, 198.51.100.1), the host that egress through
 * an Uplink reaches (issue 20); frames tagged VLAN 100 find no host there. Each Uplink bridge
 * holds breth0's MAC as a static entry (pinGatewayMac). Nothing here changes after `up`; tests
 * restore what they change.
 */
import { failing } from './errors';
import { exec, inNamespace, inRoot, ipBatch, sleep } from './exec';
import type { LabLayout, NodeLayout } from './layout';
import { nodeDbSocket, pinHostMac } from './node';

export const UPLINK_GROUP_LABEL = 'uplink.ovnk.io/group';
export const UPLINK_VLAN = 100;
export const SMALL_UPLINK_MTU = 1300;

export interface UplinkBridgeLayout {
  bridge: string;
  /** The segment's Linux bridge in the fabric namespace, holding `gateway`. */
  segment: string;
  /** The physical uplink port in the node (a veth end). */
  physical: string;
  /** Its peer in the fabric namespace. */
  fabricPeer: string;
  hostInterface: string;
  address: string;
  prefix: number;
  gateway: string;
  /** Of its default route: each bridge its own, all after breth0's. */
  metric: number;
  vlan?: number;
  physicalMtu: number;
}

/** Group a: nodes 1 and 2; group b: the rest. */
export function uplinkGroupOf(node: { id: number }): 'a' | 'b' {
  return node.id <= 3 ? 'a' : 'b';
}

/**
 * Node labels the lab's Uplink fixtures select on: every lab node carries its group (the lab's
 * Inventory lists them), so a file selecting `uplink.ovnk.io/group` works against the lab
 * unchanged; on a lab started without --uplinks no Uplink resolves anyway, and the label is inert.
 */
export function uplinkLabelsOf(node: { id: number }): Record<string, string> {
  return { [UPLINK_GROUP_LABEL]: uplinkGroupOf(node) };
}

export function uplinkBridgesOf(node: NodeLayout): UplinkBridgeLayout[] {
  const host = 10 + node.id;
  return [
    {
      bridge: 'br-blue',
      segment: 'xblue',
      physical: 'eth2',
      fabricPeer: `b${node.id}`,
      hostInterface: uplinkGroupOf(node) === 'a' ? 'blue0' : 'blueb0',
      address: `203.0.113.${host}`,
      prefix: 24,
      gateway: '203.0.113.1',
      metric: 200,
      ...(node.id === 3 ? { vlan: UPLINK_VLAN } : {}),
      physicalMtu: node.id === 4 ? SMALL_UPLINK_MTU : 1500,
    },
    {
      bridge: 'br-red',
      segment: 'xred',
      physical: 'eth3',
      fabricPeer: `r${node.id}`,
      hostInterface: 'red0',
      address: `198.51.100.${host}`,
      prefix: 24,
      gateway: '198.51.100.1',
      metric: 201,
      physicalMtu: 1500,
    },
  ];
}

function vsctlArgs(b: UplinkBridgeLayout): string[] {
  return [
    '--',
    'add-br',
    b.bridge,
    '--',
    'set',
    'Bridge',
    b.bridge,
    'datapath_type=netdev',
    '--',
    'add-port',
    b.bridge,
    b.physical,
    '--',
    'add-port',
    b.bridge,
    b.hostInterface,
    ...(b.vlan ? [`tag=${b.vlan}`] : []),
    '--',
    'set',
    'Interface',
    b.hostInterface,
    'type=internal',
  ];
}

async function waitForLinks(node: NodeLayout, names: string[]): Promise<void> {
  for (let tries = 0; ; tries++) {
    const shown = await exec(['ip', '-n', node.namespace, '-o', 'link', 'show'], {});
    if (names.every((n) => shown.stdout.includes(`: ${n}:`))) return;
    if (tries > 300) throw failing(`node ${node.name}: ovs-vswitchd did not create ${names.join(', ')}`);
    await sleep(10);
  }
}

/**
 * breth0's MAC (`gatewayMac`) pinned on each Uplink bridge's own port, so that no Uplink bridge
 * ever learns it. A gateway router sends from that MAC, and while a network moves between breth0
 * and an Uplink bridge it did so through the Uplink bridge's patch port, which learnt it there;
 * when ovn-controller then deleted that patch port, ovs-vswitchd expired the MAC in every bridge
 * of the node, breth0's static entry included (ofproto-dpif.c bundle_destroy:
 * bundle_flush_macs(bundle, true)), and breth0 learnt it on its own patch port: the node's geneve
 * went into OVN (test/lab/egress.test.ts moves blue's network so, on the shared lab). A learnt
 * entry never replaces a static one. ovnk's own entries on these bridges (provider/uplink/staticFdb.ts,
 * upstream's configureUplinkStaticFDBEntry) hold each bridge's own MAC, not breth0's: this pin, like
 * breth0's entry it protects, stays the lab's stand-in for ovnkube-node.
 */
async function pinGatewayMac(node: NodeLayout, root: string | undefined, gatewayMac: string): Promise<void> {
  for (const b of uplinkBridgesOf(node)) await pinHostMac(node, root, gatewayMac, b.bridge);
}

/** Veths, bridges, ports, addresses and routes of the Uplink bridges of one node. */
export async function provisionUplinks(
  layout: LabLayout,
  node: NodeLayout,
  root: string | undefined,
  gatewayMac: string,
): Promise<void> {
  const bridges = uplinkBridgesOf(node);
  await ipBatch(
    bridges.flatMap((b) => [
      `link add ${b.fabricPeer} mtu ${b.physicalMtu} type veth peer name ${b.physical} mtu ${b.physicalMtu} netns ${node.namespace}`,
      `link set ${b.fabricPeer} master ${b.segment}`,
      `link set ${b.fabricPeer} up`,
    ]),
    layout.fabricNamespace,
  );
  await ipBatch(
    bridges.map((b) => `link set ${b.physical} up`),
    node.namespace,
  );
  await exec(
    inNamespace(
      node.namespace,
      inRoot(root, ['ovs-vsctl', `--db=unix:${nodeDbSocket(node)}`, ...bridges.flatMap(vsctlArgs)]),
    ),
  );
  await waitForLinks(
    node,
    bridges.map((b) => b.hostInterface),
  );
  await ipBatch(
    bridges.flatMap((b) => [
      `addr add ${b.address}/${b.prefix} dev ${b.hostInterface}`,
      `link set ${b.hostInterface} up`,
      `route add default via ${b.gateway} dev ${b.hostInterface} metric ${b.metric}`,
    ]),
    node.namespace,
  );
  await pinGatewayMac(node, root, gatewayMac);
}

/** The segments' external hosts in the fabric namespace (before any node's uplinks join them). */
export async function provisionUplinkSegments(layout: LabLayout): Promise<void> {
  const first = layout.nodes[0];
  if (!first) return;
  await ipBatch(
    uplinkBridgesOf(first).flatMap((b) => [
      `link add ${b.segment} type bridge`,
      `addr add ${b.gateway}/${b.prefix} dev ${b.segment}`,
      `link set ${b.segment} up`,
    ]),
    layout.fabricNamespace,
  );
}
