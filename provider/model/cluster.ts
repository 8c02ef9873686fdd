/**
 * Loaded documents -> the Cluster model: one Inventory, the networks (CUDNs and UDNs, with the
 * namespaces they serve and their transit subnets filled in) and the connects, every list
 * sorted by name so nothing depends on document order. Every problem is collected; nothing
 * throws. These problems mean the input is unusable (the CLI's exit 3).
 */
import type { Cluster } from './clusterShape';
import {
  connectSubnetAnnotation,
  connectTunnelKeyAnnotation,
  parseClusterNetworkConnect,
  type ClusterNetworkConnect,
} from './cnc';
import { closestName } from './crd/paths';
import { parseClusterUserDefinedNetwork } from './cudn';
import { type Inventory, parseInventory } from './inventory';
import type { LoadedDocument } from './load';
import { type Network, networkFamilies, networkIdAnnotation, transitSubnetsFor } from './network';
import { configPath, networkRules } from './networkRules';
import { success } from './outcome';
import { type Problem, problem } from './problem';
import { parseRouteAdvertisementsDocuments } from './routeAdvertisements';
import { matchesSelector } from './selector';
import { parseUserDefinedNetwork } from './udn';
import { parseUplink, type Uplink, uplinkApiVersion } from './uplink';

export type { Cluster } from './clusterShape';

export const kinds = {
  Inventory: 'ovnk/v1alpha1',
  ClusterUserDefinedNetwork: 'k8s.ovn.org/v1',
  UserDefinedNetwork: 'k8s.ovn.org/v1',
  ClusterNetworkConnect: 'k8s.ovn.org/v1',
  RouteAdvertisements: 'k8s.ovn.org/v1',
  Uplink: uplinkApiVersion,
} as const;

export function buildCluster(documents: LoadedDocument[]): { cluster: Cluster; problems: Problem[] } {
  const problems: Problem[] = [];
  const usable = checkDocuments(documents, problems);
  const inventory = findInventory(usable, problems);
  const networks: Network[] = [];
  const connects: ClusterNetworkConnect[] = [];
  const uplinks: Uplink[] = [];
  for (const doc of usable) {
    if (doc.kind === 'Uplink') uplinks.push(...optional(parseUplink(doc, problems)));
    if (doc.kind === 'ClusterUserDefinedNetwork')
      networks.push(...optional(parseClusterUserDefinedNetwork(doc, problems, inventory.mtu)));
    if (doc.kind === 'UserDefinedNetwork')
      networks.push(...optional(parseUserDefinedNetwork(doc, problems, inventory.mtu)));
    if (doc.kind === 'ClusterNetworkConnect')
      connects.push(withAdopted(parseClusterNetworkConnect(doc, problems), inventory));
  }
  const unique = uniqueNetworks(networks, problems).map((n) => completeNetwork(n, inventory, problems));
  unique.sort((a, b) => compare(a.name, b.name));
  connects.sort((a, b) => compare(a.name, b.name));
  if (problems.length === 0) problems.push(...networkRules({ inventory, networks: unique, connects }));
  uplinks.sort((a, b) => compare(a.name, b.name));
  const routeAdvertisements = parseRouteAdvertisementsDocuments(usable, problems);
  return { cluster: { inventory, networks: unique, connects, uplinks, routeAdvertisements }, problems };
}

/** A CNC without upstream's annotations takes those the Inventory read from the cluster. */
function withAdopted(connect: ClusterNetworkConnect, inventory: Inventory): ClusterNetworkConnect {
  const adopted = inventory.allocations.connects[connect.name];
  if (!adopted) return connect;
  return {
    ...connect,
    subnetAnnotation: connect.subnetAnnotation ?? adopted[connectSubnetAnnotation],
    tunnelKeyAnnotation: connect.tunnelKeyAnnotation ?? adopted[connectTunnelKeyAnnotation],
  };
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function optional<T>(value: T | undefined): T[] {
  return value === undefined ? [] : [value];
}

function didYouMean(kind: string): string {
  const meant = closestName(kind, Object.keys(kinds));
  return meant ? ` (did you mean "${meant}"?)` : '';
}

/** Known kind, right apiVersion, and each object only once. */
function checkDocuments(documents: LoadedDocument[], problems: Problem[]): LoadedDocument[] {
  const seen = new Set<string>();
  return documents.filter((doc) => {
    const apiVersion = (kinds as Record<string, string>)[doc.kind];
    if (apiVersion === undefined) {
      problems.push(
        problem(
          'UnknownKind',
          doc.ref,
          'kind',
          `kind "${doc.kind}" is not one of ${Object.keys(kinds).join(', ')}${didYouMean(doc.kind)}`,
        ),
      );
    } else if (doc.apiVersion !== apiVersion) {
      problems.push(
        problem(
          'InvalidField',
          doc.ref,
          'apiVersion',
          `apiVersion "${doc.apiVersion}" of ${doc.kind} must be ${apiVersion}`,
        ),
      );
    } else if (seen.has(doc.ref)) {
      problems.push(
        problem('DuplicateObject', doc.ref, '', `${doc.ref} appears more than once (document ${doc.index})`),
      );
    } else {
      seen.add(doc.ref);
      return true;
    }
    return false;
  });
}

function findInventory(documents: LoadedDocument[], problems: Problem[]): Inventory {
  const found = documents.filter((d) => d.kind === 'Inventory');
  for (const extra of found.slice(1))
    problems.push(
      problem('DuplicateObject', extra.ref, '', `only one Inventory is allowed; ${found[0]!.ref} came first`),
    );
  if (found.length === 0) {
    problems.push(
      problem(
        'MissingInventory',
        'Inventory',
        '',
        'the file has no Inventory (kind: Inventory, apiVersion: ovnk/v1alpha1)',
      ),
    );
    return parseInventory(
      {
        index: -1,
        apiVersion: kinds.Inventory,
        kind: 'Inventory',
        metadata: { name: 'default', labels: {}, annotations: {} },
        ref: 'Inventory/default',
        body: {},
      },
      problems,
    );
  }
  return parseInventory(found[0]!, problems);
}

/** A CUDN `x` and a UDN would never share a name, but two objects could claim one network id. */
function uniqueNetworks(networks: Network[], problems: Problem[]): Network[] {
  const byName = new Map<string, Network>();
  const byId = new Map<number, Network>();
  return networks.filter((n) => {
    const sameId = n.pinnedId === undefined ? undefined : byId.get(n.pinnedId);
    if (byName.has(n.name))
      problems.push(
        problem('DuplicateObject', n.ref, '', `network name ${n.name} is also used by ${byName.get(n.name)!.ref}`),
      );
    else if (sameId)
      problems.push(
        problem(
          'InvalidField',
          n.ref,
          `metadata.annotations["${networkIdAnnotation}"]`,
          `network id ${n.pinnedId} is also pinned by ${sameId.ref}`,
        ),
      );
    else {
      byName.set(n.name, n);
      if (n.pinnedId !== undefined) byId.set(n.pinnedId, n);
      return true;
    }
    return false;
  });
}

/** Fill in what depends on the inventory: served namespaces and Layer2 transit subnets. */
function completeNetwork(network: Network, inventory: Inventory, problems: Problem[]): Network {
  const namespaces = inventory.namespaces
    .filter((ns) =>
      network.namespaceSelector ? matchesSelector(network.namespaceSelector, ns.labels) : ns.name === network.namespace,
    )
    .map((ns) => ns.name)
    .sort(compare);
  const transitSubnets =
    network.topology === 'Layer2' && network.role === 'Primary'
      ? transitSubnetsFor(inventory.ipFamilies, [
          ...network.subnets.map((s) => s.cidr),
          ...network.joinSubnets,
          ...inventory.masqueradeSubnets,
          ...inventory.serviceCIDRs,
        ])
      : success([]);
  if (!transitSubnets.ok)
    problems.push(
      problem('InvalidField', network.ref, `${configPath(network)}subnets`, `transit subnet: ${transitSubnets.why}`),
    );
  return { ...network, namespaces, transitSubnets: transitSubnets.ok ? transitSubnets.value : [] };
}

/** A network is in use when it serves a namespace of the inventory (upstream needs a NAD). */
export function inUse(network: Network): boolean {
  return network.namespaces.length > 0;
}

export { networkFamilies };
