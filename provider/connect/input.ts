/**
 * What the connect renderer reads: plain, already-allocated data for one ClusterNetworkConnect
 * (fromCluster.ts maps model + alloc into it) and the zone it renders for. Addresses are parsed
 * CIDRs so the per-node work stays arithmetic.
 */
import type { ConnectSubnet } from '../alloc/connectSubnets';
import type { Cidr, Family } from '../model/cidr';

export type NetworkTopology = 'layer3' | 'layer2';

export interface ConnectNode {
  name: string;
  /** `k8s.ovn.org/node-id`. */
  id: number;
  /** `k8s.ovn.org/node-chassis-id`: needed for remote Layer3 ports of the per-node layout. */
  chassisId?: string;
}

export interface ConnectedNetwork {
  /** Raw OVN network name (`cluster_udn_blue-network`). */
  name: string;
  id: number;
  topology: NetworkTopology;
  /** The network's cluster subnets (upstream's `netInfo.Subnets()`), as written. */
  subnets: Cidr[];
  /** Its connect allocation, IPv4 first: a /networkPrefix slice (Layer3) or a /31, /127 (Layer2). */
  connectSubnets: Cidr[];
  /** Layer3: host subnets per node name. */
  hostSubnets: Record<string, Cidr[]>;
  /** Names of the network's ClusterIP load balancers (services.ts), for ServiceNetwork. */
  loadBalancers: string[];
  /** Nodes the network is active on (Dynamic UDN); absent: every node. */
  activeNodes?: string[];
}

export interface ConnectInput {
  name: string;
  /** The connect router's datapath key (`k8s.ovn.org/connect-router-tunnel-key`). */
  tunnelKey: number;
  podNetwork: boolean;
  serviceNetwork: boolean;
  /** spec.connectSubnets, parsed. */
  connectSubnets: ConnectSubnet[];
  /** Sorted by network id. */
  networks: ConnectedNetwork[];
  /** The cluster's service CIDRs (pass-service ACL). */
  serviceCIDRs: Cidr[];
  /** The families the cluster runs (address sets, drop ACL match). */
  ipFamilies: Family[];
}
