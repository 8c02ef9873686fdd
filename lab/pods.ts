/**
 * Pods of the lab: a network namespace per pod with a veth whose node end is an OVS port on the
 * node's br-int carrying `external_ids:iface-id=<logical switch port>` (testbed recipe section 11).
 * Every pod is recorded in the lab state before it is created, so `down` removes it whatever happens.
 */
import { badInput } from './errors';
import { exec, inNamespace, inRoot, ipBatch } from './exec';
import { hasDataPlane, type NodeLayout } from './layout';
import { nodeDbSocket } from './node';
import { type PodRecord, readState, updateState } from './state';

export interface PodSpec {
  /** Kubernetes namespace and pod name. */
  namespace: string;
  name: string;
  node: string;
  /** The logical switch port this pod binds to. */
  ifaceId: string;
  mac: string;
  /** Addresses with prefix length, e.g. 10.9.0.10/24. */
  addresses: string[];
  gateways?: string[];
  /** Other routes, `<destination> via <next hop>` (a secondary network's subnets). */
  routes?: string[];
  mtu?: number;
}

async function recordPod(labName: string, spec: PodSpec): Promise<PodRecord & { hostIf: string }> {
  let record: (PodRecord & { hostIf: string }) | undefined;
  await updateState(labName, (state) => {
    const node = state.layout.nodes.find((n) => n.name === spec.node);
    if (!node)
      throw badInput(
        `pod ${spec.namespace}/${spec.name}: node "${spec.node}" is not in lab "${labName}" (nodes: ${state.layout.nodes.map((n) => n.name).join(', ')})`,
      );
    if (!hasDataPlane(state.layout))
      throw badInput(
        `pod ${spec.namespace}/${spec.name}: lab "${labName}" runs without a data plane (no node namespaces): start it without --no-data-plane to plug pods`,
      );
    if (state.pods.some((p) => p.namespace === spec.namespace && p.name === spec.name))
      throw badInput(`pod ${spec.namespace}/${spec.name} already exists in lab "${labName}"`);
    const serial = Math.max(0, ...state.pods.map((p) => Number(p.serial ?? 0))) + 1;
    record = {
      namespace: spec.namespace,
      name: spec.name,
      node: spec.node,
      netns: `${node.namespace}-p${serial}`,
      serial,
      hostIf: `pod${serial}`,
      ifaceId: spec.ifaceId,
      mac: spec.mac,
      addresses: spec.addresses,
    };
    state.pods.push(record);
  });
  return record!;
}

/** Create the pod's namespace and plug it into the node's br-int. */
export async function addPod(labName: string, spec: PodSpec): Promise<PodRecord> {
  const pod = await recordPod(labName, spec);
  const state = readState(labName)!;
  const node = state.layout.nodes.find((n) => n.name === spec.node)!;
  await exec(['ip', 'netns', 'add', pod.netns]);
  await ipBatch(
    [`link add ${pod.hostIf} type veth peer name eth0 netns ${pod.netns}`, `link set ${pod.hostIf} up`],
    node.namespace,
  );
  await ipBatch(
    [
      'link set lo up',
      `link set eth0 address ${spec.mac}`,
      ...(spec.mtu ? [`link set eth0 mtu ${spec.mtu}`] : []),
      ...spec.addresses.map((a) => `addr add ${a} dev eth0`),
      'link set eth0 up',
      ...(spec.gateways ?? []).map((g) => `route add default via ${g} dev eth0`),
      ...(spec.routes ?? []).map((r) => `route add ${r} dev eth0`),
    ],
    pod.netns,
  );
  // TCP through the userspace datapath needs TX checksum offload off (testbed pitfall 2)
  await exec(inNamespace(pod.netns, ['ethtool', '-K', 'eth0', 'tx', 'off']));
  await exec(inRoot(state.ovnRoot, [...vsctl(node), ...plugInto(pod.hostIf, spec.ifaceId)]));
  return pod;
}

/** ovs-vsctl against a node's own database. */
const vsctl = (node: NodeLayout): string[] => ['ovs-vsctl', `--db=unix:${nodeDbSocket(node)}`];

/** The ovs-vsctl arguments that add `hostIf` to br-int bound to the logical switch port `ifaceId`. */
const plugInto = (hostIf: string, ifaceId: string): string[] => [
  'add-port',
  'br-int',
  hostIf,
  '--',
  'set',
  'Interface',
  hostIf,
  `external_ids:iface-id=${ifaceId}`,
];

/**
 * Move a plugged pod to another node the way a live migration moves a virtual machine: its
 * network namespace, its eth0 (address, MAC, neighbours) and whatever runs inside stay as they
 * are; the node end of its veth leaves the old node's br-int, moves into the new node's namespace
 * and is plugged into that node's br-int with the same iface-id, so the new node's ovn-controller
 * claims the port once its requested-chassis names that node.
 */
export async function movePod(labName: string, namespace: string, name: string, to: string): Promise<PodRecord> {
  const state = readState(labName);
  const pod = state?.pods.find((p) => p.namespace === namespace && p.name === name);
  if (!state || !pod) throw badInput(`pod ${namespace}/${name} is not plugged in lab "${labName}"`);
  const from = state.layout.nodes.find((n) => n.name === pod.node)!;
  const node = state.layout.nodes.find((n) => n.name === to);
  if (!node)
    throw badInput(
      `pod ${namespace}/${name}: node "${to}" is not in lab "${labName}" (nodes: ${state.layout.nodes.map((n) => n.name).join(', ')})`,
    );
  const hostIf = String(pod.hostIf);
  await exec(inRoot(state.ovnRoot, [...vsctl(from), '--if-exists', 'del-port', 'br-int', hostIf]));
  await ipBatch([`link set ${hostIf} netns ${node.namespace}`], from.namespace);
  await ipBatch([`link set ${hostIf} up`], node.namespace);
  await exec(inRoot(state.ovnRoot, [...vsctl(node), ...plugInto(hostIf, String(pod.ifaceId))]));
  const updated = await updateState(labName, (s) => {
    s.pods.find((p) => p.namespace === namespace && p.name === name)!.node = to;
  });
  return updated.pods.find((p) => p.namespace === namespace && p.name === name)!;
}

/** Unplug and delete a pod; unknown pods are fine (nothing to do). */
export async function removePod(labName: string, namespace: string, name: string): Promise<void> {
  const state = readState(labName);
  const pod = state?.pods.find((p) => p.namespace === namespace && p.name === name);
  if (!state || !pod) return;
  const node = state.layout.nodes.find((n) => n.name === pod.node)!;
  await exec(inRoot(state.ovnRoot, [...vsctl(node), '--if-exists', 'del-port', 'br-int', String(pod.hostIf)]));
  await exec(['ip', 'netns', 'del', pod.netns], { okCodes: [1, 255] });
  await updateState(labName, (s) => {
    s.pods = s.pods.filter((p) => !(p.namespace === namespace && p.name === name));
  });
}
