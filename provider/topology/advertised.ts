/**
 * An advertised pod network (a RouteAdvertisements with PodNetwork selects it; NoOverlay and EVPN
 * networks always count): the cluster-wide address sets its SNATs name, and the isolation of
 * upstream's strict `advertised-udn-isolation-mode` (its default; udn_isolation.go
 * addAdvertisedNetworkIsolation): a pass ACL at 1100 on the network's switch for traffic within
 * the network, its subnets in the `advertised-network-subnets` address set, and its `stor-`
 * (Layer2: `stotr-`) port in the port group whose drop ACL at 1050
 * (ConfigureAdvertisedNetworkIsolation) drops traffic between advertised networks.
 * The address sets, the port group and its drop ACL are upstream's default network controller's,
 * one per cluster: shared rows (nb/shared.ts); each network adds its subnets and its ports
 * (merge.ts joins them within one owner).
 */
import { type Family, formatCidr } from '../model/cidr';
import { objectIds } from '../model/dbObjectIds';
import { NAME_KEY } from '../model/externalIds';
import type { NetworkContext } from './context';
import { ACL_LOGGING_METER, networkControllerName } from './names';
import { addressSetFamily, addressSetRef, addressSetRow } from './objectIds';
import { refs, row, type DesiredRow } from './rows';

const DEFAULT_CONTROLLER = 'default-network-controller';
const ADVERTISED = 'AdvertisedNetwork';
const ADVERTISED_SUBNETS = 'advertised-network-subnets';
/** types.AdvertisedNetworkPassPriority, AdvertisedNetworkDenyPriority. */
export const ADVERTISED_PASS_PRIORITY = 1100;
export const ADVERTISED_DROP_PRIORITY = 1050;

/** The cluster families (one masquerade subnet each). */
const familiesOf = (ctx: NetworkContext): Family[] => ctx.masquerades.map((m) => m.family);

/** addressset_manager.go getClusterNodeIPsAddrSetDbIDs, with the address set's ip-family. */
export const nodeIPsIds = (family: Family) =>
  objectIds(DEFAULT_CONTROLLER, 'ClusterNodeIPs', [
    [NAME_KEY, 'node-ips'],
    ['ip-family', addressSetFamily(family)],
  ]);

/** udnenabledsvc.GetAddressSetDBIDs: the default network's services UDN pods may reach. */
export const udnServicesIds = (family: Family) =>
  objectIds('udn-enabled-svc', 'UDNEnabledService', [
    [NAME_KEY, 'udn-enabled-svc-cluster-ips'],
    ['ip-family', addressSetFamily(family)],
  ]);

const advertisedSubnetsIds = (family: Family) =>
  objectIds(DEFAULT_CONTROLLER, ADVERTISED, [
    [NAME_KEY, ADVERTISED_SUBNETS],
    ['ip-family', addressSetFamily(family)],
  ]);

const shared = (r: DesiredRow): DesiredRow => ({ ...r, shared: true });

/**
 * The address sets an advertised network's SNATs name: every node's IPs, and the default
 * network's UDN-enabled services (kept by upstream's udn-enabled-svc controller from the default
 * network's services, which the Inventory does not describe: rendered empty).
 */
export function advertisedAddressSets(ctx: NetworkContext): DesiredRow[] {
  return familiesOf(ctx).flatMap((f) => [
    shared(
      addressSetRow(
        nodeIPsIds(f),
        ctx.clusterNodeIPs.filter((ip) => ip.includes(':') === (f === 6)),
      ),
    ),
    shared(addressSetRow(udnServicesIds(f), [])),
  ]);
}

/**
 * `ip4.dst == $<set>` terms of these sets for one family, `(a || b)` when several
 * (getClusterNodesDestinationBasedSNATMatch).
 */
export function destinationMatch(family: Family, sets: Record<string, string>[]): string {
  const terms = sets.map((ids) => `ip${family}.dst == ${addressSetRef(ids)}`);
  return terms.length === 1 ? terms[0]! : `(${terms.join(' || ')})`;
}

/** BuildAdvertisedNetworkSubnetsDropACL: drop between any two advertised subnets, after load balancing. */
function dropAcl(ctx: NetworkContext): DesiredRow {
  const match = familiesOf(ctx)
    .map((f) => {
      const set = addressSetRef(advertisedSubnetsIds(f));
      return `(ip${f}.src == ${set} && ip${f}.dst == ${set})`;
    })
    .join(' || ');
  return isolationAcl(
    ADVERTISED_DROP_PRIORITY,
    'drop',
    match,
    objectIds(DEFAULT_CONTROLLER, ADVERTISED, [
      [NAME_KEY, ADVERTISED_SUBNETS],
      ['network', ''],
    ]),
  );
}

function isolationAcl(priority: number, action: string, match: string, ids: Record<string, string>): DesiredRow {
  return row('ACL', {
    priority,
    direction: 'from-lport',
    action,
    match,
    tier: 0,
    meter: ACL_LOGGING_METER,
    log: false,
    options: { 'apply-after-lb': 'true' },
    external_ids: ids,
  });
}

/** The pass ACL for traffic within the network, for its switch(es). */
export function advertisedPassAcl(ctx: NetworkContext): DesiredRow {
  const terms = ([4, 6] as const).flatMap((f) => {
    const subnets = ctx.subnets.filter((s) => s.family === f).map(formatCidr);
    if (subnets.length === 0) return [];
    const src = subnets.map((s) => `ip${f}.src == ${s}`).join(' || ');
    const dst = subnets.map((s) => `ip${f}.dst == ${s}`).join(' || ');
    return [`((${src}) && (${dst}))`];
  });
  const controller = networkControllerName(ctx.name);
  return isolationAcl(
    ADVERTISED_PASS_PRIORITY,
    'pass',
    terms.join(' || '),
    objectIds(controller, ADVERTISED, [
      [NAME_KEY, ctx.name],
      ['network', String(ctx.id)],
    ]),
  );
}

/**
 * The cluster's isolation rows with this network's part: its subnets in the advertised-subnets
 * address sets and `ports` (its switch-to-router ports in this zone) in the drop port group.
 * `ports` undefined: the cluster's rows without the network's part, which upstream adds only
 * after SyncGateway on Layer2 (layer2_user_defined_network_controller.go addUpdateLocalNodeEvent),
 * so not while the gateway waits for its UplinkState.
 */
export function advertisedIsolation(ctx: NetworkContext, ports: string[] | undefined): DesiredRow[] {
  const sets = familiesOf(ctx).map((f) =>
    addressSetRow(advertisedSubnetsIds(f), ports ? ctx.subnets.filter((s) => s.family === f).map(formatCidr) : []),
  );
  const drop = dropAcl(ctx);
  const pgIds = objectIds(DEFAULT_CONTROLLER, ADVERTISED, [[NAME_KEY, ADVERTISED_SUBNETS]]);
  const group = row('Port_Group', {
    name: addressSetRef(pgIds).slice(1),
    ports: [...(ports ?? [])].sort(),
    acls: refs([drop]),
    external_ids: pgIds,
  });
  return [...sets, drop, group].map(shared);
}
