/**
 * ServiceNetwork without PodNetwork (upstream §3.6): tier-0 ACLs on each locally active
 * network's pod switches (none where a network is inactive, Dynamic UDN) that pass traffic to
 * services (500) and within the network (475) and
 * drop new connections to the other connected networks (450, with `ct.new` because of
 * FDP-3124), plus the per-family address sets of all connected networks' subnets, named `a` +
 * FNV-1a-64 of upstream's id. The pass-service and drop ACLs are shared by every switch.
 */
import { type Cidr, type Family, formatCidr } from '../model/cidr';
import type { DesiredRow } from '../nb/desired';
import { ACL_LOGGING_METER } from '../topology/names';
import {
  aclIds,
  addressSetIds,
  addressSetName,
  addressSetPrimaryId,
  DROP_POD_PRIORITY,
  PASS_SAME_NETWORK_PRIORITY,
  PASS_SERVICE_PRIORITY,
} from './ids';
import type { ConnectedNetwork, ConnectInput } from './input';
import { podSwitches } from './networkNames';

function dst(cidrs: Cidr[]): string[] {
  return cidrs.map((c) => `ip${c.family}.dst == ${formatCidr(c)}`);
}

function acl(cnc: string, type: string, priority: number, action: string, match: string): DesiredRow {
  return {
    table: 'ACL',
    columns: {
      direction: 'from-lport',
      tier: 0,
      priority,
      action,
      match,
      meter: ACL_LOGGING_METER,
      log: false,
      external_ids: aclIds(cnc, type),
    },
  };
}

/** The address sets, one per cluster family, holding the connected networks' subnets. */
export function addressSetRows(input: ConnectInput): DesiredRow[] {
  return input.ipFamilies.map((family) => ({
    table: 'Address_Set',
    columns: {
      name: addressSetName(addressSetPrimaryId(input.name, family)),
      addresses: input.networks.flatMap((n) => n.subnets.filter((s) => s.family === family).map(formatCidr)),
      external_ids: addressSetIds(input.name, family),
    },
  }));
}

function dropMatch(input: ConnectInput): string {
  const terms = input.ipFamilies.map(
    (f: Family) => `ip${f}.dst == $${addressSetName(addressSetPrimaryId(input.name, f))}`,
  );
  return `${terms.length > 1 ? `(${terms.join(' || ')})` : terms[0]} && ct.new`;
}

function sharedAcls(input: ConnectInput): DesiredRow[] {
  const rows: DesiredRow[] = [];
  if (input.serviceCIDRs.length > 0)
    rows.push(
      acl(input.name, 'pass-service', PASS_SERVICE_PRIORITY, 'pass', `(${dst(input.serviceCIDRs).join(' || ')})`),
    );
  if (input.ipFamilies.length > 0) rows.push(acl(input.name, 'drop-pod', DROP_POD_PRIORITY, 'drop', dropMatch(input)));
  return rows;
}

function networkAcl(input: ConnectInput, network: ConnectedNetwork): DesiredRow {
  return acl(
    input.name,
    `pass-same-network-${network.id}`,
    PASS_SAME_NETWORK_PRIORITY,
    'pass',
    dst(network.subnets).join(' || '),
  );
}

function onSwitches(row: DesiredRow, switches: string[]): DesiredRow {
  return { ...row, parents: switches.map((sw) => ({ table: 'Logical_Switch', identity: sw, column: 'acls' })) };
}

/** ACLs and address sets of the zone; each ACL's parents are the pod switches it applies to. */
export function partialIsolation(input: ConnectInput, localNodes: string[]): DesiredRow[] {
  const all = input.networks.flatMap((n) => podSwitches(n, localNodes));
  const shared = all.length === 0 ? [] : sharedAcls(input).map((row) => onSwitches(row, all));
  const perNetwork = input.networks.flatMap((n) => {
    const switches = podSwitches(n, localNodes);
    return switches.length === 0 ? [] : [onSwitches(networkAcl(input, n), switches)];
  });
  return [...shared, ...perNetwork, ...addressSetRows(input)];
}
