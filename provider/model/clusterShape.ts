/**
 * The Cluster: what buildCluster (cluster.ts) makes of the documents, and what every later step
 * reads. Its own module so the rules over a cluster (networkRules.ts), which buildCluster runs,
 * import it without importing their caller.
 */
import type { ClusterNetworkConnect } from './cnc';
import type { Inventory } from './inventory';
import type { Network } from './network';
import type { RouteAdvertisements } from './routeAdvertisements';
import type { Uplink } from './uplink';

export interface Cluster {
  inventory: Inventory;
  /** Sorted by OVN network name. */
  networks: Network[];
  /** Sorted by name. */
  connects: ClusterNetworkConnect[];
  /** Uplink objects (OKEP-6019), sorted by name; absent when built by hand without them. */
  uplinks?: Uplink[];
  /** RouteAdvertisements objects, sorted by name: the VRF membership of Uplink CUDNs; absent when built by hand. */
  routeAdvertisements?: RouteAdvertisements[];
}
