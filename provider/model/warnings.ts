/**
 * Warnings: what is legal but likely a mistake. Nothing is refused for them; the CLI prints them
 * as kubectl prints the apiserver's (`Warning:` on stderr, `warnings` in the JSON document). A
 * selector that matches nothing is the first: a typo in a label silently leaves a network serving
 * no namespace (so nothing of it is created), or drops a network out of its connect.
 */
import type { Cluster } from './clusterShape';
import { givenFields } from './preconfigured';
import { fieldPath } from './problem';
import { type LabelSelector, matchesSelector } from './selector';

export type WarningReason =
  | 'NamespaceSelectorMatchesNothing'
  | 'NetworkSelectorMatchesNothing'
  /** A connect selecting fewer than two networks (provider/connect/validate.ts): upstream accepts it. */
  | 'InsufficientNetworks'
  /**
   * Preconfigured Layer2 addresses without the Inventory's enablePreconfiguredUDNAddresses
   * (model/preconfigured.ts).
   */
  | 'PreconfiguredAddressesIgnored'
  /**
   * An Uplink CUDN's node without a resolved UplinkState (runtime/warnings.ts): no gateway there
   * until it resolves. Upstream's UplinksReady condition reasons.
   */
  | 'MissingUplinkState'
  | 'UplinkStateNotResolved';

export interface Warning {
  reason: WarningReason;
  /** One sentence: what matched nothing and what follows from it. */
  message: string;
  /** `<Kind>/<name>: <field path>`, as a Problem's. */
  path: string;
  object: string;
}

export function clusterWarnings(cluster: Cluster): Warning[] {
  return [...networkWarnings(cluster), ...preconfiguredWarnings(cluster), ...connectWarnings(cluster)];
}

/**
 * Upstream without --enable-preconfigured-udn-addresses leaves these fields out of the NAD
 * (net-attach-def-template.go), so the network gets the default .1 and .2 addresses: say so
 * rather than drop them silently.
 */
const ignoredMeans = {
  defaultGatewayIPs: "the gateway stays each subnet's first address",
  infrastructureSubnets:
    "the gateway and management addresses stay each subnet's first and second, and pods may get its addresses",
  reservedSubnets: 'pods may get its addresses',
} as const;

function preconfiguredWarnings(cluster: Cluster): Warning[] {
  if (cluster.inventory.enablePreconfiguredUDNAddresses) return [];
  return cluster.networks.flatMap((n) =>
    givenFields(n.preconfigured).map((field) =>
      warning(
        'PreconfiguredAddressesIgnored',
        n.ref,
        `${n.kind === 'ClusterUserDefinedNetwork' ? 'spec.network.' : 'spec.'}layer2.${field}`,
        `is ignored without the Inventory's spec.enablePreconfiguredUDNAddresses (upstream's --enable-preconfigured-udn-addresses, off by default): ${ignoredMeans[field]}`,
      ),
    ),
  );
}

export function warning(reason: WarningReason, object: string, field: string, message: string): Warning {
  return { reason, message, path: fieldPath(object, field), object };
}

/** The Inventory's namespaces, for the message: a typo is found by reading what is there. */
function listed(cluster: Cluster): string {
  const names = cluster.inventory.namespaces.map((ns) => ns.name);
  if (names.length === 0) return 'the Inventory lists no namespace';
  const shown = names.slice(0, 6).join(', ');
  return `the Inventory lists ${shown}${names.length > 6 ? ` and ${names.length - 6} more` : ''}`;
}

const matchesNoNamespace = (cluster: Cluster, selector: LabelSelector) =>
  !cluster.inventory.namespaces.some((ns) => matchesSelector(selector, ns.labels));

function networkWarnings(cluster: Cluster): Warning[] {
  return cluster.networks
    .filter((n) => n.kind === 'ClusterUserDefinedNetwork' && n.namespaceSelector && n.namespaces.length === 0)
    .map((n) =>
      warning(
        'NamespaceSelectorMatchesNothing',
        n.ref,
        'spec.namespaceSelector',
        `matches no namespace (${listed(cluster)}): the network serves none, so nothing of it is created`,
      ),
    );
}

function connectWarnings(cluster: Cluster): Warning[] {
  return cluster.connects.flatMap((cnc) =>
    (cnc.networkSelectors ?? []).flatMap((selector, i) => {
      const at = `spec.networkSelectors[${i}]`;
      const namespaces = selector.primaryUserDefinedNetworkSelector?.namespaceSelector;
      const networks = selector.clusterUserDefinedNetworkSelector?.networkSelector;
      const found: Warning[] = [];
      if (
        selector.networkSelectionType === 'PrimaryUserDefinedNetworks' &&
        namespaces &&
        matchesNoNamespace(cluster, namespaces)
      )
        found.push(
          warning(
            'NamespaceSelectorMatchesNothing',
            cnc.ref,
            `${at}.primaryUserDefinedNetworkSelector.namespaceSelector`,
            `matches no namespace (${listed(cluster)}): this selector connects no network`,
          ),
        );
      if (
        selector.networkSelectionType === 'ClusterUserDefinedNetworks' &&
        networks &&
        matchesNoCudn(cluster, networks)
      )
        found.push(
          warning(
            'NetworkSelectorMatchesNothing',
            cnc.ref,
            `${at}.clusterUserDefinedNetworkSelector.networkSelector`,
            'matches the labels of no ClusterUserDefinedNetwork: this selector connects no network',
          ),
        );
      return found;
    }),
  );
}

const matchesNoCudn = (cluster: Cluster, selector: LabelSelector) =>
  !cluster.networks.some((n) => n.kind === 'ClusterUserDefinedNetwork' && matchesSelector(selector, n.labels));
