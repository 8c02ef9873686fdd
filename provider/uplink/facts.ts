/**
 * What discovery found on one node, as plain data: host links with their MAC, MTU and addresses
 * (`ip -j addr`), main-table routes of both families (`ip -j route`), and the Open_vSwitch rows
 * that matter (bridges, ports with VLAN tags, interfaces with types and MTUs, the bridge mappings).
 * provider/runtime/uplink fills it; everything in this directory decides from it. Pure types.
 */
import type { Family } from '../model/cidr';

export interface LinkAddress {
  family: Family;
  address: string;
  prefix: number;
  scope: string;
  secondary: boolean;
  deprecated: boolean;
}

export interface HostLink {
  name: string;
  mac?: string;
  mtu: number;
  addresses: LinkAddress[];
}

export interface HostRoute {
  family: Family;
  /** `default` or a CIDR. */
  dst: string;
  gateway?: string;
  dev?: string;
  /** ECMP routes (several next hops) are not default gateways upstream. */
  multipath: boolean;
}

export interface OvsBridge {
  name: string;
  /** Port names. */
  ports: string[];
  externalIds: Record<string, string>;
}

export interface OvsPort {
  name: string;
  /** Interface names. */
  interfaces: string[];
  tag?: number;
}

export interface OvsInterface {
  name: string;
  /** `""` or `system` for a system device, `internal`, `patch`, ... */
  type: string;
  mtu?: number;
  /** The OpenFlow port number ovs-vswitchd gave it (what `fdb/show` prints), when it has one. */
  ofport?: number;
}

export interface OvsFacts {
  bridges: OvsBridge[];
  ports: OvsPort[];
  interfaces: OvsInterface[];
  /** Open_vSwitch external_ids:ovn-bridge-mappings. */
  bridgeMappings?: string;
  /** The whole Open_vSwitch external_ids (the owned-mappings key lives there too). */
  externalIds: Record<string, string>;
}

export interface NodeFacts {
  node: string;
  links: HostLink[];
  routes: HostRoute[];
  ovs: OvsFacts;
}
