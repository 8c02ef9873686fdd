/**
 * Which networks a ClusterNetworkConnect selects, as upstream's cluster manager discovers them:
 * - ClusterUserDefinedNetworks: CUDNs in use whose labels match `networkSelector` (upstream
 *   matches the NADs, which carry the CUDN's labels);
 * - PrimaryUserDefinedNetworks: the primary network (UDN or CUDN) of each inventory namespace
 *   matching `namespaceSelector`; namespaces without one are skipped.
 * Secondary networks (Localnet ones included) are left out without a word, as upstream's
 * discoverSelectedNetworks does; networks that cannot be connected for their transport
 * (NoOverlay, EVPN) are returned as UnsupportedNetworkType problems, as upstream reports them.
 */
import { type Cluster, compare, inUse } from '../model/cluster';
import type { ClusterNetworkConnect } from '../model/cnc';
import type { Network } from '../model/network';
import { type Problem, problem } from '../model/problem';
import { matchesSelector } from '../model/selector';

export interface Selection {
  /** Connectable networks, sorted by name. */
  networks: Network[];
  problems: Problem[];
}

export function selectNetworks(cnc: ClusterNetworkConnect, cluster: Cluster): Selection {
  const found = new Map<string, Network>();
  const problems: Problem[] = [];
  (cnc.networkSelectors ?? []).forEach((selector, i) => {
    const at = `spec.networkSelectors[${i}]`;
    if (selector.networkSelectionType === 'ClusterUserDefinedNetworks') {
      const wanted = selector.clusterUserDefinedNetworkSelector?.networkSelector ?? {};
      // upstream skips secondary networks, Localnet ones included, without a word
      // (clustermanager/networkconnect/cluster_network_connect.go discoverSelectedNetworks: `continue`)
      for (const n of cluster.networks)
        if (
          n.kind === 'ClusterUserDefinedNetwork' &&
          n.role === 'Primary' &&
          inUse(n) &&
          matchesSelector(wanted, n.labels)
        )
          found.set(n.name, n);
    }
    if (selector.networkSelectionType === 'PrimaryUserDefinedNetworks') {
      const wanted = selector.primaryUserDefinedNetworkSelector?.namespaceSelector ?? {};
      for (const ns of cluster.inventory.namespaces.filter((ns) => matchesSelector(wanted, ns.labels))) {
        const primaries = cluster.networks.filter((n) => n.role === 'Primary' && n.namespaces.includes(ns.name));
        if (primaries.length > 1)
          problems.push(
            problem(
              'InvalidSpec',
              cnc.ref,
              at,
              `namespace ${ns.name} has more than one primary network: ${primaries.map((n) => n.name).join(', ')}`,
            ),
          );
        else if (primaries.length === 1) found.set(primaries[0]!.name, primaries[0]!);
      }
    }
  });
  const networks: Network[] = [];
  for (const n of [...found.values()].sort((a, b) => compare(a.name, b.name))) {
    const reason = unsupported(n);
    if (reason) problems.push(problem('UnsupportedNetworkType', cnc.ref, 'spec.networkSelectors', reason));
    else networks.push(n);
  }
  return { networks, problems };
}

/** The NAD's transport names (upstream's transportFromCRD): what its message shows. */
const transportName: Record<Network['transport'], string> = { Geneve: '', NoOverlay: 'no-overlay', EVPN: 'evpn' };

/** Why a selected (primary) network cannot be connected (upstream's text), if it cannot. */
export function unsupported(n: Network): string | undefined {
  if (n.transport !== 'Geneve')
    return `network ${n.name} has transport type ${transportName[n.transport]} that is not supported for networkConnect`;
  return undefined;
}
