/**
 * Pod logical switch ports (§9): name from the NAD key's prefix + `<namespace>_<pod>`,
 * addresses = port_security = `"<mac> <ip> [<ip6>]"`, requested-chassis of the pod's node,
 * `iface-id-ver` when the UID is known, upstream's external_ids. Layer3 pods sit on their node's
 * switch (local nodes only); Layer2 pods on the layer2 switch, other nodes' pods as `remote`
 * ports in the per-node layout, carrying the pod's tunnel id; Localnet pods on the localnet
 * switch, local nodes only (upstream's interconnect port config is Layer2's alone,
 * zone_ic_handler.go AddTransitPortConfig).
 */
import { NAD_KEY, NETWORK_KEY, TOPOLOGY_KEY } from '../model/externalIds';
import { parseIP } from './addresses';
import { switchPort } from './builders';
import { type NetworkContext, nodeByName } from './context';
import { TopologyInputError } from './errors';
import type { PodInput, RenderInput } from './input';
import { macFromIPs } from './mac';
import { podPort } from './names';
import type { NodeContext } from './nodeContext';
import type { DesiredRow } from './rows';

function checkPod(pod: PodInput, index: number, input: RenderInput): void {
  const field = `pods[${index}]`;
  if (!input.network.nadKeys.includes(pod.nadKey)) {
    throw new TopologyInputError(`${field}.nadKey`, pod.nadKey, `is not a NAD of network ${input.network.name}`);
  }
  if (!Array.isArray(pod.ips) || pod.ips.length === 0)
    throw new TopologyInputError(`${field}.ips`, pod.ips, 'names no address');
  pod.ips.forEach((ip, i) => parseIP(ip, `${field}.ips[${i}]`));
}

function podRow(ctx: NetworkContext, pod: PodInput, node: NodeContext, remote: boolean): DesiredRow {
  const mac = pod.mac ?? macFromIPs(pod.ips);
  const addresses = [[mac, ...pod.ips].join(' ')];
  const options: Record<string, string> = { 'requested-chassis': node.chassisId };
  if (pod.uid) options['iface-id-ver'] = pod.uid;
  if (ctx.topology === 'layer2' && pod.tunnelId !== undefined) options['requested-tnl-key'] = String(pod.tunnelId);
  return switchPort(podPort(pod.nadKey, pod.namespace, pod.name), {
    // a Layer2 pod's port states its type even when local (''), so a pod that moved here from
    // another zone's node stops being `remote` (a plan manages only the columns it names)
    type: remote ? 'remote' : ctx.topology === 'layer2' ? '' : undefined,
    addresses,
    portSecurity: addresses,
    options,
    externalIds: {
      namespace: pod.namespace,
      pod: 'true',
      [NETWORK_KEY]: ctx.name,
      [NAD_KEY]: pod.nadKey,
      [TOPOLOGY_KEY]: ctx.topology,
    },
  });
}

/** Pod LSPs of the zone grouped by the node they are on (Layer2: remote ones included). */
export function renderPodPorts(ctx: NetworkContext, input: RenderInput): Map<string, DesiredRow[]> {
  const local = new Set(ctx.local.map((n) => n.name));
  const all = nodeByName(ctx);
  // the zone's nodes: its local ones, and per-node every other active one as remote
  const nodes = { get: (name: string) => (ctx.layout === 'per-node' || local.has(name) ? all.get(name) : undefined) };
  const byNode = new Map<string, DesiredRow[]>();
  (input.pods ?? []).forEach((pod, index) => {
    checkPod(pod, index, input);
    const node = nodes.get(pod.node);
    if (!input.nodes.some((n) => n.name === pod.node))
      throw new TopologyInputError(`pods[${index}].node`, pod.node, 'is not a node of the input');
    const remote = !local.has(pod.node);
    if (!node || (remote && ctx.topology !== 'layer2')) return;
    const list = byNode.get(pod.node) ?? [];
    list.push(podRow(ctx, pod, node, remote));
    byNode.set(pod.node, list);
  });
  return byNode;
}
