/**
 * Row builders for the NB tables the topology renders: router and switch ports, gateway
 * chassis, static routes, reroute policies and NATs. Only columns upstream sets are written;
 * rows upstream gives no id get a readable, stable `ovnk.io/key`.
 */
import { cidrText, type Addr } from './addresses';
import { macFromIPs } from './mac';
import { KINDS, keyedRow, row, type DesiredRow, type StringMap } from './rows';

export interface RouterPortSpec {
  networks: Addr[];
  mac?: string;
  options?: StringMap;
  externalIds?: StringMap;
  peer?: string;
  gatewayChassis?: string[];
  ipv6RaConfigs?: StringMap;
}

/** A Logical_Router_Port; its MAC defaults to the one derived from its addresses. */
export function routerPort(name: string, spec: RouterPortSpec): DesiredRow {
  const networks = spec.networks.map(cidrText);
  const columns: Record<string, unknown> = { name, networks, mac: spec.mac ?? macFromIPs(networks) };
  if (spec.options && Object.keys(spec.options).length > 0) columns.options = spec.options;
  if (spec.externalIds) columns.external_ids = spec.externalIds;
  if (spec.peer) columns.peer = spec.peer;
  if (spec.gatewayChassis) columns.gateway_chassis = spec.gatewayChassis;
  if (spec.ipv6RaConfigs) columns.ipv6_ra_configs = spec.ipv6RaConfigs;
  return row('Logical_Router_Port', columns);
}

export interface SwitchPortSpec {
  type?: string;
  addresses: string[];
  portSecurity?: string[];
  options?: StringMap;
  externalIds?: StringMap;
}

export function switchPort(name: string, spec: SwitchPortSpec): DesiredRow {
  const columns: Record<string, unknown> = { name, addresses: spec.addresses };
  if (spec.type !== undefined) columns.type = spec.type;
  if (spec.portSecurity) columns.port_security = spec.portSecurity;
  if (spec.options) columns.options = spec.options;
  if (spec.externalIds) columns.external_ids = spec.externalIds;
  return row('Logical_Switch_Port', columns);
}

/** The switch side of a router port: type router, addresses ["router"]. */
export function routerTypePort(
  name: string,
  routerPortName: string,
  externalIds?: StringMap,
  extraOptions?: StringMap,
): DesiredRow {
  return switchPort(name, {
    type: 'router',
    addresses: ['router'],
    options: { 'router-port': routerPortName, ...extraOptions },
    externalIds,
  });
}

export function gatewayChassis(name: string, chassisId: string): DesiredRow {
  return row('Gateway_Chassis', { name, chassis_name: chassisId, priority: 1 });
}

export interface RouteSpec {
  prefix: string;
  nexthop: string;
  srcIp?: boolean;
  outputPort?: string;
  externalIds: StringMap;
}

export function staticRoute(router: string, spec: RouteSpec): DesiredRow {
  const policy = spec.srcIp ? 'src-ip' : 'dst-ip';
  const columns: Record<string, unknown> = { ip_prefix: spec.prefix, nexthop: spec.nexthop };
  if (spec.srcIp) columns.policy = 'src-ip';
  if (spec.outputPort) columns.output_port = spec.outputPort;
  return keyedRow(
    KINDS.route,
    { router, policy, prefix: spec.prefix, nexthop: spec.nexthop },
    spec.externalIds,
    columns,
  );
}

export function reroutePolicy(
  router: string,
  priority: number,
  match: string,
  nexthop: string,
  externalIds: StringMap,
): DesiredRow {
  const columns = { priority, match, action: 'reroute', nexthops: [nexthop] };
  return keyedRow(KINDS.policy, { router, priority: String(priority), match }, externalIds, columns);
}

export interface SnatSpec {
  externalIp: string;
  logicalIp: string;
  logicalPort?: string;
  match?: string;
  externalPortRange?: string;
  gatewayPort?: string;
  /** The address set (by name) of the only destinations SNATed; such SNATs are keyed by it too. */
  allowedExtIps?: string;
  /** The address set (by name) of destinations not SNATed. */
  exemptedExtIps?: string;
  externalIds: StringMap;
}

export function snat(router: string, spec: SnatSpec): DesiredRow {
  const columns: Record<string, unknown> = {
    type: 'snat',
    external_ip: spec.externalIp,
    logical_ip: spec.logicalIp,
    options: { stateless: 'false' },
  };
  if (spec.logicalPort) columns.logical_port = spec.logicalPort;
  if (spec.match) columns.match = spec.match;
  if (spec.externalPortRange) columns.external_port_range = spec.externalPortRange;
  if (spec.gatewayPort) columns.gateway_port = spec.gatewayPort;
  if (spec.exemptedExtIps) columns.exempted_ext_ips = spec.exemptedExtIps;
  const key = { router, type: 'snat', external_ip: spec.externalIp, logical_ip: spec.logicalIp };
  if (!spec.allowedExtIps) return keyedRow(KINDS.nat, key, spec.externalIds, columns);
  // upstream writes one SNAT per allowed set for the same addresses (buildUDNEgressSNAT)
  columns.allowed_ext_ips = spec.allowedExtIps;
  return keyedRow(KINDS.allowedNat, { ...key, allowed_ext_ips: spec.allowedExtIps }, spec.externalIds, columns);
}
