/**
 * What a network's gateway bridge flows need beyond egress (provider/uplink/routedFlows.ts,
 * serviceFlows.ts), as ovnkube-node's bridge configuration holds it (bridgeconfig.go
 * AddNetworkConfig): its packet mark (4096 + network id), management masquerade addresses,
 * subnets, this node's subnets (the Layer3 host subnet, the Layer2 network subnets: gateway_udn.go
 * getLocalSubnets), whether it is advertised (util.IsPodNetworkAdvertisedAtNode: a RouteAdvertisements
 * with PodNetwork, or a NoOverlay or EVPN transport) and whether it is NoOverlay; and the
 * cluster's service CIDRs with their families' masquerade addresses. Pure.
 */
import { parseCidr, type Cidr } from '../../model/cidr';
import type { Cluster } from '../../model/cluster';
import type { Inventory } from '../../model/inventory';
import { masqueradeIPs } from '../../topology/addresses';
import { isPodNetworkAdvertised } from '../../topology/fromCluster';
import { type BridgeNetwork, type ServiceFamily, udnPktMark } from '../../uplink/flows';

/** The Inventory's masquerade subnet of `family`, as written and parsed. */
export const masqueradeSubnet = (inventory: Inventory, family: 4 | 6): { text: string; cidr: Cidr } | undefined => {
  for (const text of inventory.masqueradeSubnets) {
    const cidr = parseCidr(text);
    if (cidr.ok && cidr.value.family === family) return { text, cidr: cidr.value };
  }
  return undefined;
};

/** `config.Kubernetes.ServiceCIDRs` with `V4HostMasqueradeIP` / `V4MasqueradeSubnet` (V6) of each one's family. */
export function serviceFamilies(inventory: Inventory): ServiceFamily[] {
  return inventory.serviceCIDRs.flatMap((cidr) => {
    const masq = masqueradeSubnet(inventory, cidr.includes(':') ? 6 : 4);
    return masq ? [{ cidr, hostMasqIp: masqueradeIPs(masq.cidr, 0).host.ip, masqueradeSubnet: masq.text }] : [];
  });
}

/** The network's flow facts on `node`; `hostSubnets` (the allocation's) gives a Layer3 network's node subnets. */
export function networkFlowFacts(
  cluster: Cluster,
  id: number,
  name: string,
  node: string,
  hostSubnets?: Readonly<Record<string, Readonly<Record<string, string[]>>>>,
): Partial<BridgeNetwork> {
  const network = cluster.networks.find((n) => n.name === name);
  if (!network) return {};
  const subnets = network.subnets.map((s) => s.cidr);
  const nodeSubnets = network.topology === 'Layer3' ? hostSubnets?.[name]?.[node] : subnets;
  const management = ([4, 6] as const).map((f) => {
    const masq = masqueradeSubnet(cluster.inventory, f);
    return masq && masqueradeIPs(masq.cidr, id).management.ip;
  });
  const advertised = network.transport !== 'Geneve' || isPodNetworkAdvertised(cluster, network);
  return {
    pktMark: udnPktMark(id),
    subnets,
    ...(nodeSubnets ? { nodeSubnets } : {}),
    ...(management[0] ? { managementMasqIp: management[0] } : {}),
    ...(management[1] ? { managementMasqIp6: management[1] } : {}),
    ...(advertised ? { advertised: true } : {}),
    ...(network.transport === 'NoOverlay' ? { noOverlay: true } : {}),
  };
}
